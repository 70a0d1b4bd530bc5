import Foundation
import Testing
import TestSupport

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

    /// What bash offers after `line` (ending where the cursor is).
    private func complete(_ line: String, in scratch: ScratchDirectory) async throws -> [String] {
        let script = scratch.child("vodapp.bash")
        let generated = try await VODAppRunner().run(["--generate-completion-script", "bash"])
        try generated.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let current = words.last ?? ""
        let previous = words.count > 1 ? words[words.count - 2] : ""
        words = words.map { "'\($0)'" }
        let program = """
        source '\(script)'
        COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(\(words.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
        _vodapp vodapp '\(current)' '\(previous)'
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let bash = try await runTool("/bin/bash", ["-c", program], environment: ["PATH": VODAppRunner.productsDirectory + ":/usr/bin:/bin"])
        return bash.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsOptionsAndTheirValues() async throws {
        let scratch = try ScratchDirectory()
        #expect(try await complete("vodapp li", in: scratch).contains("listen"))
        #expect(try await complete("vodapp handle --na", in: scratch) == ["--name"])
        #expect(Set(try await complete("vodapp handle --name ", in: scratch)) == ["title", "key"])
        #expect(Set(try await complete("vodapp handle --log-level ", in: scratch)).isSuperset(of: ["debug", "warning", "error"]))
    }
}
