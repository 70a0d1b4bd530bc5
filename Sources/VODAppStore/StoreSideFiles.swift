import Foundation
import VODAppBase

/// The files SQLite keeps beside the store, `-wal`, `-shm` and `-journal`, when something other
/// than SQLite's own file is at their names: a FIFO (an open or read that blocks), a symbolic
/// link or a hard link (written through, it would change a file outside DIR).
///
/// Like vodapp's other work files, such a thing is removed and SQLite makes the file afresh,
/// but only while no connection anywhere has the store open: a connection in WAL mode keeps
/// the real `-wal` and `-shm` open, and one that went on using them beside a new pair would
/// corrupt the store. Every such connection holds SQLite's SHARED lock on the database file
/// for as long as it is open, so the removal is done holding SQLite's EXCLUSIVE lock (a write
/// lock on the bytes SQLite's unix VFS locks for SHARED): taken, nobody has the store open, and
/// nobody can open it until it is let go. Held, the thing stays and the store is refused, as
/// before.
enum StoreSideFiles {
    static let suffixes = ["-wal", "-shm", "-journal"]

    /// What is wrong with each side file of `database` that vodapp did not make.
    static func planted(beside database: String) -> [SafeFile.Failure] {
        suffixes.compactMap { suffix in
            if case .unsafe(let failure) = SafeFile.inspect(database + suffix) { failure } else { nil }
        }
    }

    /// Removes what is planted at the side files of `database` (a regular file of one link,
    /// made empty when absent, as SQLite would), if no connection has the store open.
    /// - Throws: `StateStoreError.unsafe` when the store is in use, or a planted thing cannot
    ///   be removed.
    static func removePlanted(beside database: String, _ planted: [SafeFile.Failure]) throws {
        let fd: Int32
        do {
            fd = try SafeFile.open(database, O_RDWR | O_CREAT)
        } catch {
            throw StateStoreError.unsafe(error.description)
        }
        // Closing the descriptor lets the lock go. This process has no connection to the store
        // yet (StateStore.shared opens it once), so the close drops no lock of SQLite's.
        defer { close(fd) }
        guard lock(fd, type: F_WRLCK, command: setLock) else { throw inUse(planted) }
        for suffix in suffixes {
            let path = database + suffix
            guard case .unsafe = SafeFile.inspect(path) else { continue }
            if SafeFile.remove(path) == EISDIR { SafeFile.removeFolder(path) }
            if case .unsafe(let failure) = SafeFile.inspect(path) { throw StateStoreError.unsafe(failure.description) }
        }
    }

    private static func inUse(_ planted: [SafeFile.Failure]) -> StateStoreError {
        .unsafe((planted.first?.description ?? "a file beside the store is not SQLite's") + ", and the store is in use, so it is not replaced now")
    }

    // Linux's value, the same on every architecture; Glibc's module does not export it.
    private static let setLock: Int32 = 37 // F_OFD_SETLK

    /// SQLite's unix VFS takes SHARED as a read lock on 510 bytes from `PENDING_BYTE` (1 GiB) + 2,
    /// and EXCLUSIVE as a write lock on the same bytes. Open-file-description locks conflict with
    /// its POSIX locks, whichever process holds them.
    private static func lockRange(type: Int32) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0x4000_0000 + 2
        lock.l_len = 510
        return lock
    }

    private static func lock(_ fd: Int32, type: Int32, command: Int32) -> Bool {
        var lock = lockRange(type: type)
        return fcntl(fd, command, &lock) == 0
    }
}
