import Foundation
import Testing
import TestSupport
import UnitTestSupport

/// Shell completions as `vodapp --generate-completion-script` writes them, and bash completing
/// with them as it would at a prompt. (The man pages are generated and checked by
/// scripts/generate-docs, which scripts/test runs: the plugin that makes them is a package
/// command, which cannot run inside `swift test`.)
@Suite struct CompletionTests {
    @Test(arguments: ["vodapp", "vodapp-push"], ["bash", "zsh", "fish"])
    func everyShellsScriptGenerates(tool: String, shell: String) async throws {
        let run = try await VODAppRunner(tool: tool).run(["--generate-completion-script", shell])
        #expect(run.exitCode == 0, "\(run.stderr)")
        let mark = shell == "fish" ? "complete -c '\(tool)'" : shell == "zsh" ? "#compdef \(tool)" : "complete -o filenames -F _"
        #expect(run.stdout.contains(mark), "\(run.stdout.prefix(300))")
    }

    /// The completion of handle as vodapp's default subcommand, which scripts/generate-docs
    /// appends to the generated script.
    private static let defaultSubcommand = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../packaging/completions/vodapp-default.bash").standardized.path

    /// What bash offers after `line` (ending where the cursor is), with the script as installed.
    private func complete(_ line: String, in scratch: ScratchDirectory) async throws -> [String] {
        let script = scratch.child("vodapp.bash")
        let generated = try await VODAppRunner().run(["--generate-completion-script", "bash"])
        let addition = try String(contentsOfFile: Self.defaultSubcommand, encoding: .utf8)
        try (generated.stdout + addition).write(toFile: script, atomically: true, encoding: .utf8)
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let current = words.last ?? ""
        let previous = words.count > 1 ? words[words.count - 2] : ""
        words = words.map { "'\($0)'" }
        let program = """
        source '\(script)'
        COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(\(words.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
        $(complete -p vodapp | sed 's/.* -F \\([^ ]*\\) .*/\\1/') vodapp '\(current)' '\(previous)'
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let bash = try await runTool("/bin/bash", ["-c", "cd '\(scratch.path)' && " + program],
                                     environment: ["PATH": VODAppRunner.productsDirectory + ":/usr/bin:/bin"])
        return bash.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsOptionsAndTheirValues() async throws {
        let scratch = try ScratchDirectory()
        #expect(try await complete("vodapp li", in: scratch).contains("listen"))
        #expect(try await complete("vodapp handle --na", in: scratch) == ["--name"])
        #expect(Set(try await complete("vodapp handle --name ", in: scratch)) == ["title", "key"])
        #expect(Set(try await complete("vodapp handle --log-level ", in: scratch)).isSuperset(of: ["debug", "warning", "error"]))
    }

    /// `handle` is the default subcommand: a payload file completes in first place, and the
    /// options after it are handle's.
    @Test func bashCompletesTheDefaultSubcommandsPayloadAndOptions() async throws {
        let scratch = try ScratchDirectory()
        _ = FileManager.default.createFile(atPath: scratch.child("push1.json"), contents: Data("{}".utf8))
        #expect(Set(try await complete("vodapp p", in: scratch)) == ["poll", "push1.json"])
        #expect(try await complete("vodapp push1.json --na", in: scratch) == ["--name"])
        #expect(Set(try await complete("vodapp push1.json --name ", in: scratch)) == ["title", "key"])
        #expect(try await complete("vodapp listen --no-u", in: scratch) == ["--no-udp"])
    }
}
