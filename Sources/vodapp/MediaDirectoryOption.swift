import ArgumentParser
import CommandSupport
import SystemPackage
import VODAppDelivery

/// `--dir`, as every command that works on DIR takes it.
struct MediaDirectoryOption: ParsableArguments {
    @Option(help: ArgumentHelp("Where media goes. Default: $VODAPP_DIR, else the XDG videos folder + /VODApp.", valueName: "dir"),
            completion: .directory)
    var dir: String?

    func validate() throws {
        if let dir, dir.isEmpty {
            throw ValidationError("--dir must name a directory; leave it out for the default")
        }
    }

    /// DIR, absolute and normalised: `--dir`, else the contract's default.
    var path: String {
        DeliveryOptions(directory: dir ?? DeliveryOptions.defaultDirectory()).directory
    }

    /// DIR, for a command that reads what is there (`status`, `forget`): one that does not exist
    /// is an error (exit 66), a typo more often than a fresh start, which "nothing recorded"
    /// would hide.
    func existingPath() throws -> String {
        let path = path
        do {
            let info = try Stat(FilePath(path))
            guard info.type == .directory else {
                throw CommandFailure("cannot read \(path): it is not a directory", status: .payloadUnreadable)
            }
        } catch let error as Errno {
            let other = dir == nil ? "--dir DIR names another" : "check --dir"
            let hint = error == .noSuchFileOrDirectory ? " (nothing was ever delivered there; \(other))" : ""
            throw CommandFailure("cannot read \(path): \(error.description)\(hint)", status: .payloadUnreadable)
        }
        return path
    }
}
