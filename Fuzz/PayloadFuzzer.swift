import Foundation
import VODAppPayload

/// libFuzzer's entry point for the code that takes untrusted payload bytes: vodapp's `Payload`
/// parser (every receiver — file, stdin, UDP, HTTP, poll — goes through it, and through its strict
/// `JSONParser`) and `vodapp-push`'s `PushMessage` compactor, which is hand-written.
///
/// Beyond "does not crash", three properties are checked. Whatever `JSONParser` accepts,
/// Foundation's `JSONSerialization` accepts too: strict means a subset of JSON, never a dialect.
/// Whatever `PushMessage` accepts, it compacts without changing its meaning, so vodapp must judge
/// the compact text exactly as it judges the original (same items in the same order, or the same
/// rejection). And compacting what is compact changes nothing. A difference traps, and libFuzzer
/// keeps the input.
///
/// Built by `Fuzz/run` with `swiftc -sanitize=fuzzer,address` from these files and the sources
/// they test; not part of the package.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let original = verdict(data)
    if (try? JSONParser.parse(data)) != nil,
       (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
        fatalError("JSONParser accepted what JSONSerialization refuses")
    }
    if let message = try? PushMessage(data: data) {
        let compact = verdict(message.body)
        if compact != original {
            fatalError("compaction changed vodapp's verdict: \(original) became \(compact)")
        }
        // Compacting what is already compact changes nothing.
        if let again = try? PushMessage(data: message.body), again.body != message.body {
            fatalError("compaction is not idempotent")
        }
    }
    return 0
}

/// What vodapp makes of `data`: its items, or why it refused them. A JSON syntax error's detail
/// names a line and column, which compaction moves, so only its kind counts.
private func verdict(_ data: Data) -> String {
    do {
        return "\(try Payload(data: data).items)"
    } catch .notJSON {
        return "not JSON"
    } catch {
        return "\(error)"
    }
}
