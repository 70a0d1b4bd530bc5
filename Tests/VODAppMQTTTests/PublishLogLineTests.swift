import Testing
@testable import VODAppMQTT

/// The payload size read off libmosquitto's debug line for a PUBLISH, which the heap ceiling
/// counts whatever else the process frees meanwhile: read from the end, so that a topic holding
/// parentheses or "bytes" cannot change it.
@Suite struct PublishLogLineTests {
    @Test(arguments: [
        ("Client vodapp-1 received PUBLISH (d0, q1, r0, m1, 'vodapp/devices/a/push', ... (100663296 bytes))", 100_663_296),
        ("Client x received PUBLISH (d0, q0, r1, m0, 'a (9 bytes)) b', ... (12 bytes))", 12),
        ("Client x received PUBLISH (d0, q0, r0, m0, 't', ... (0 bytes))", 0),
        ("Client x received PUBLISH (d0, q0, r0, m0, 't', ... (many bytes))", 0),
        ("Client x sending PUBACK (m1, rc0)", 0),
    ])
    func thePayloadSizeIsReadFromTheEnd(line: String, bytes: Int) {
        #expect(MosquittoClient.payloadBytes(announcedIn: line) == bytes)
    }
}
