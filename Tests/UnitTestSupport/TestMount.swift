/// A file system a test mounts, which must be unmounted whatever the test does.
package protocol TestMount: Sendable {
    func unmount() async
}

/// Runs `body` with `mount`, then unmounts it, whether `body` returned or threw. (An unmount
/// cannot be awaited in a `defer`.)
package func using<Mount: TestMount, T>(_ mount: Mount, _ body: (Mount) async throws -> T) async throws -> T {
    do {
        let result = try await body(mount)
        await mount.unmount()
        return result
    } catch {
        await mount.unmount()
        throw error
    }
}
