import Foundation
import PackagePlugin

/// Compiles the sample clips into VODAppSamples at build time: `SampleMedia/clips.tsv` names
/// them, and `sample-media-embedder` writes the Swift file that holds their bytes into the
/// plugin's work directory. The clips stay binary files in the repository, the Swift file is
/// never committed, and a changed clip rebuilds it (each clip is an input of the command).
@main
struct EmbedSampleMedia: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let media = context.package.directoryURL.appending(path: "SampleMedia")
        let manifest = media.appending(path: "clips.tsv")
        let clips = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n")
            .compactMap { $0.split(separator: "\t").first.map { media.appending(path: String($0)) } }
        let output = context.pluginWorkDirectoryURL.appending(path: "SampleMediaData.swift")
        return [.buildCommand(
            displayName: "Embedding \(clips.count) sample clips",
            executable: try context.tool(named: "sample-media-embedder").url,
            arguments: [manifest.path, output.path],
            inputFiles: [manifest] + clips,
            outputFiles: [output])]
    }
}
