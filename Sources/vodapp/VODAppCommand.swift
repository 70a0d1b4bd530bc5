import ArgumentParser
import CommandSupport

struct VODAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vodapp",
        abstract: "Fetch the videos of a silent push's playlist for offline viewing.",
        discussion: """
        A Linux port of VODApp. A payload carries a playlist; vodapp downloads every item \
        concurrently within a wall-clock budget, drops items over the size limit, and raises one \
        desktop notification when it is done. `vodapp PAYLOAD` is short for `vodapp handle PAYLOAD`.

        Files are named 'Title [key].ext', and DIR/playlist.m3u8 lists them for a media player.

        Examples:
          vodapp payload.json
          vodapp - --dir /tmp/videos --json < payload.json | jq .result
          mpv ~/Videos/VODApp/playlist.m3u8
        """,
        version: ReleaseVersion.current,
        subcommands: [Handle.self, Get.self, Listen.self, Poll.self, Status.self, Forget.self],
        defaultSubcommand: Handle.self
    )
}
