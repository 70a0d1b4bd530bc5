import Foundation
import Testing

/// docs/RELIABILITY.md promises a test for every row of the fault matrix: each test it names must
/// exist, so that a renamed or deleted test cannot leave a row unproven.
@Suite struct ReliabilityDocumentTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL.path

    @Test func everyTestTheFaultMatrixNamesExists() throws {
        let document = try String(contentsOfFile: Self.root + "/docs/RELIABILITY.md", encoding: .utf8)
        // The matrix is every table before "Last runs", which records runs, not faults.
        let matrix = document.components(separatedBy: "\n## Last runs").first ?? document
        let rows = matrix.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| case") && !$0.hasPrefix("| ---") }
        #expect(rows.count >= 40, "the matrix has \(rows.count) rows")

        var sources: [String: String] = [:]
        let tests = FileManager.default.enumerator(atPath: Self.root + "/Tests")
        while let path = tests?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            sources[path] = try String(contentsOfFile: Self.root + "/Tests/" + path, encoding: .utf8)
        }
        let reference = /`(\w+Tests)\.(\w+)/
        var named = 0
        for row in rows {
            let cells = row.split(separator: "|")
            let proof = cells.last.map(String.init) ?? ""
            let matches = proof.matches(of: reference)
            #expect(!matches.isEmpty || proof.contains("by construction") || proof.contains("Fuzz/"), "no test for: \(row)")
            for match in matches {
                let suite = String(match.output.1)
                let test = String(match.output.2)
                let file = sources.first { $0.value.contains("struct \(suite)") || $0.value.contains("class \(suite)") }
                #expect(file?.value.contains("func \(test)(") == true, "\(suite).\(test) named in docs/RELIABILITY.md does not exist")
                named += 1
            }
        }
        #expect(named >= rows.count)
    }
}
