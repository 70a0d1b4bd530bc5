import Testing
@testable import VODAppMQTT

struct BrokerClientIDTests {
    @Test func theSameMachineAndDirectoryGiveTheSameIDEveryTime() {
        let id = BrokerClientID.derived(machine: "0123abcd", directory: "/home/ann/Videos/VODApp")
        #expect(id == BrokerClientID.derived(machine: "0123abcd", directory: "/home/ann/Videos/VODApp/"))
        #expect(id == BrokerClientID.derived(machine: "0123abcd", directory: "/home/ann/Videos/./VODApp"))
        #expect(id.hasPrefix("vodapp-") && id.count == 23)
        #expect(BrokerClientID.standard(directory: "/tmp/x") == BrokerClientID.standard(directory: "/tmp/x"))
    }

    @Test func anotherMachineOrDirectoryGivesAnotherID() {
        let id = BrokerClientID.derived(machine: "0123abcd", directory: "/home/ann/Videos/VODApp")
        #expect(id != BrokerClientID.derived(machine: "0123abce", directory: "/home/ann/Videos/VODApp"))
        #expect(id != BrokerClientID.derived(machine: "0123abcd", directory: "/home/ann/Videos/Talks"))
    }

    @Test func idsGivenByHandAreChecked() {
        #expect(BrokerClientID.problem(with: "kiosk-7") == nil)
        #expect(BrokerClientID.problem(with: "") != nil)
        #expect(BrokerClientID.problem(with: "a\nb") != nil)
        #expect(BrokerClientID.problem(with: String(repeating: "x", count: 300)) != nil)
    }
}
