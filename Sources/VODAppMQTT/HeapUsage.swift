import CMosquitto

/// How much of the process's heap is in use, as glibc's allocator counts it.
///
/// libmosquitto keeps on the heap whatever a broker makes it hold: QoS 2 messages never released
/// (it waits for a PUBREL that a hostile broker never sends), acknowledgements queued for a broker
/// that stops reading, a message of up to MQTT's 256 MiB before its first byte is handed on.
/// None of it is visible through libmosquitto's API; the heap's growth is.
enum HeapUsage {
    /// Bytes allocated and not freed: small blocks and those mapped on their own.
    static func inUse() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }

    /// Gives freed memory back to the system (glibc keeps it otherwise), after a client that held
    /// a great deal is destroyed.
    static func giveBack() {
        _ = malloc_trim(0)
    }
}
