import Testing
@testable import VODAppMQTT

struct BrokerURLTests {
    @Test func aFullURLIsReadPartByPart() throws {
        let url = try BrokerURL("mqtts://kiosk7:p%40ss%2Fword@broker.example.com:8884/vodapp/kiosks/7", for: .subscribe)
        #expect(url.usesTLS)
        #expect(url.host == "broker.example.com")
        #expect(url.port == 8884)
        #expect(url.user == "kiosk7")
        #expect(url.password == "p@ss/word")
        #expect(url.topic == "vodapp/kiosks/7")
    }

    @Test func portsDefaultByScheme() throws {
        #expect(try BrokerURL("mqtt://broker/t", for: .subscribe).port == 1883)
        #expect(try BrokerURL("MQTTS://broker/t", for: .subscribe).port == 8883)
        #expect(try BrokerURL("mqtt://[::1]/t", for: .subscribe).host == "::1")
        #expect(try BrokerURL("mqtt://[::1]:1884/t", for: .subscribe).server == "[::1]:1884")
    }

    @Test func wildcardsAreTopicFiltersNotFragments() throws {
        #expect(try BrokerURL("mqtt://broker/vodapp/#", for: .subscribe).topic == "vodapp/#")
        #expect(try BrokerURL("mqtt://broker/vodapp/+/push", for: .subscribe).topic == "vodapp/+/push")
        #expect(throws: BrokerURLError.badTopic("vodapp/#")) { try BrokerURL("mqtt://broker/vodapp/#", for: .publish) }
        #expect(throws: BrokerURLError.badFilter("vodapp/#/x")) { try BrokerURL("mqtt://broker/vodapp/#/x", for: .subscribe) }
        #expect(throws: BrokerURLError.badFilter("a+/b")) { try BrokerURL("mqtt://broker/a+/b", for: .subscribe) }
    }

    @Test func thePasswordIsNeverInTheDescription() throws {
        let url = try BrokerURL("mqtt://device:hunter2@127.0.0.1:1883/t", for: .subscribe)
        #expect(url.description == "mqtt://device@127.0.0.1:1883/t")
        #expect(url.with(password: "other").password == "other")
        #expect(url.with(password: "other").description == url.description)
    }

    @Test(arguments: [
        ("http://broker/t", BrokerURLError.notBrokerURL),
        ("broker/t", .notBrokerURL),
        ("mqtt://broker", .noTopic),
        ("mqtt://broker/", .noTopic),
        ("mqtt://@broker/t", .emptyUser),
        ("mqtt://:1883/t", .badHost("")),
        ("mqtt://bro ker/t", .badHost("bro ker")),
        ("mqtt://a:b:c/t", .badHost("a:b")),
        ("mqtt://broker:0/t", .badPort("0")),
        ("mqtt://broker:99999/t", .badPort("99999")),
        ("mqtt://broker:x/t", .badPort("x")),
        ("mqtt://broker/t%zz", .badEscape(part: "topic")),
        ("mqtt://broker/t%00", .badEscape(part: "topic")),
    ])
    func wrongURLsSayWhatIsWrong(text: String, error: BrokerURLError) {
        #expect(throws: error) { try BrokerURL(text, for: .subscribe) }
    }
}
