import ArgumentParser
import CommandSupport

struct VODAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vodapp",
        abstract: "Fetch the videos of a silent push's playlist for offline viewing.",
        discussion: """
        A Linux port of VODApp. A server's silent push carries a playlist; vodapp downloads \
        every item concurrently within a wall-clock budget (--budget, 30 s), drops items over \
        the size limit (--max-size, 20 MiB) before their bodies land, raises one desktop \
        notification, prints a report, and exits with a code scripts can trust. `vodapp \
        PAYLOAD` is short for `vodapp handle PAYLOAD`.

        Files are named 'Title [key].ext' in DIR (--dir, else $VODAPP_DIR, else the XDG videos \
        folder + /VODApp), and DIR/playlist.m3u8 lists them for a media player. vodapp keeps \
        its state in DIR/.vodapp, so that nothing is fetched twice and a cut transfer resumes.

        `vodapp help SUBCOMMAND` gives each subcommand's rules, options and examples.

        Examples:
          vodapp payload.json
          vodapp - --dir /tmp/videos --json < payload.json | jq .result
          vodapp get https://example.com/media/tulips.mp4
          mpv ~/Videos/VODApp/playlist.m3u8

        More: README.md and docs/ (installed under /usr/share/doc/vodapp/): INSTALL.md, \
        OPTIONS.md, PAYLOAD.md, STREAMS.md, DIRECTORY.md, LISTEN.md, OUTPUT.md, PUSH.md.
        """,
        version: ReleaseVersion.current,
        subcommands: [Handle.self, Get.self, Listen.self, Poll.self, Status.self, Forget.self],
        defaultSubcommand: Handle.self
    )
}
