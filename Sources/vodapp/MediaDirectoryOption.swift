import ArgumentParser
import VODAppDelivery

/// `--dir`, as every command that works on DIR takes it.
struct MediaDirectoryOption: ParsableArguments {
    @Option(help: ArgumentHelp("Where media goes. Default: $VODAPP_DIR, else the XDG videos folder + /VODApp.", valueName: "dir"))
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
}
