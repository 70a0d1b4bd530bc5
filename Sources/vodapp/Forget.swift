import ArgumentParser
import CommandSupport
import VODAppDelivery
import VODAppModel
import VODAppPayload
import VODAppReport

struct Forget: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget that items were removed, so that the next push naming them fetches them again.",
        discussion: """
        A file you removed from DIR by hand is remembered, and pushes naming its key report it \
        as removed instead of fetching it again. This forgets that, for each KEY given, so \
        that the next push naming it fetches it again; --refetch-removed does the same for one \
        delivery. (What vodapp removed, for retention or --sync, a push naming it fetches \
        again anyway.) `vodapp status` lists what was removed, with the keys.

        Exit status: 0, even for a key that was not removed (it is said so on stderr); 64 for a \
        key that cannot be an item's; 66 when DIR's store cannot be read; 73 when DIR/.vodapp is not \
        yours (another user's, or writable by group or others).

        Examples:
          vodapp forget f3058e6662927f1fcd17840469cfd5f3
          vodapp forget --dir /tmp/videos a b c

        More: docs/DIRECTORY.md, "vodapp forget" (installed under /usr/share/doc/vodapp/).
        """
    )

    @OptionGroup var directory: MediaDirectoryOption

    @Argument(help: ArgumentHelp("The keys of the items, as in the payload and in `vodapp status`.", valueName: "key"))
    var keys: [String]

    func validate() throws {
        guard !keys.isEmpty else { throw ValidationError("name at least one KEY to forget") }
        for key in keys where !ItemKey.isValid(key) {
            throw ValidationError("'\(ReportRenderer.printable(key))' is not an item key: 1 to 128 of A-Z, a-z, 0-9, _ and -")
        }
    }

    func run() throws {
        let directory = try directory.existingPath()
        let result = try RemovedItems.forget(keys, in: directory)
        for key in result.forgotten {
            print("forgot \(key): the next push naming it fetches it again")
        }
        for key in result.notRemoved {
            StandardError.write("\(key) was not removed from \(directory): nothing to forget")
        }
    }
}
