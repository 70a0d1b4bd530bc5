import Testing
import VODAppMQTT

struct TopicFilterTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let filter: String
        let topic: String
        let matches: Bool
        var testDescription: String { "\(filter) \(matches ? "matches" : "does not match") \(topic)" }
    }

    /// MQTT 3.1.1's own examples (4.7.1.2, 4.7.1.3, 4.7.2), then the corners.
    static let cases: [Case] = [
        // Plain levels: byte for byte, case and all.
        .init(filter: "vodapp/devices/kiosk7/push", topic: "vodapp/devices/kiosk7/push", matches: true),
        .init(filter: "vodapp/devices/kiosk7/push", topic: "vodapp/devices/kiosk8/push", matches: false),
        .init(filter: "vodapp/devices/kiosk7/push", topic: "vodapp/devices/Kiosk7/push", matches: false),
        .init(filter: "vodapp/devices/kiosk7/push", topic: "vodapp/devices/kiosk7/push/", matches: false),
        .init(filter: "vodapp/devices/kiosk7/push", topic: "vodapp/devices/kiosk7", matches: false),
        .init(filter: "vodapp/devices/kiosk7/push", topic: "/vodapp/devices/kiosk7/push", matches: false),
        .init(filter: "a", topic: "a", matches: true),
        .init(filter: "/", topic: "/", matches: true),
        .init(filter: "/a", topic: "a", matches: false),
        // #: the rest, the parent level included.
        .init(filter: "sport/tennis/player1/#", topic: "sport/tennis/player1", matches: true),
        .init(filter: "sport/tennis/player1/#", topic: "sport/tennis/player1/ranking", matches: true),
        .init(filter: "sport/tennis/player1/#", topic: "sport/tennis/player1/score/wimbledon", matches: true),
        .init(filter: "sport/tennis/player1/#", topic: "sport/tennis/player2", matches: false),
        .init(filter: "sport/tennis/player1/#", topic: "sport/tennis", matches: false),
        .init(filter: "sport/#", topic: "sport", matches: true),
        .init(filter: "sport/#", topic: "sport/", matches: true),
        .init(filter: "sport/#", topic: "sports", matches: false),
        .init(filter: "#", topic: "anything/at/all", matches: true),
        .init(filter: "#", topic: "/", matches: true),
        // +: exactly one level, an empty one too.
        .init(filter: "sport/tennis/+", topic: "sport/tennis/player1", matches: true),
        .init(filter: "sport/tennis/+", topic: "sport/tennis/player2", matches: true),
        .init(filter: "sport/tennis/+", topic: "sport/tennis/player1/ranking", matches: false),
        .init(filter: "sport/tennis/+", topic: "sport/tennis", matches: false),
        .init(filter: "sport/tennis/+", topic: "sport/tennis/", matches: true),
        .init(filter: "sport/+", topic: "sport", matches: false),
        .init(filter: "sport/+", topic: "sport/", matches: true),
        .init(filter: "+", topic: "a", matches: true),
        .init(filter: "+", topic: "a/b", matches: false),
        .init(filter: "+/+", topic: "/finance", matches: true),
        .init(filter: "/+", topic: "/finance", matches: true),
        .init(filter: "+", topic: "/finance", matches: false),
        .init(filter: "vodapp/devices/+/push", topic: "vodapp/devices/kiosk7/push", matches: true),
        .init(filter: "vodapp/devices/+/push", topic: "vodapp/devices/kiosk7/other", matches: false),
        .init(filter: "vodapp/devices/+/push", topic: "vodapp/devices/a/b/push", matches: false),
        .init(filter: "vodapp/+/+/push", topic: "vodapp/devices/kiosk7/push", matches: true),
        .init(filter: "+/tennis/#", topic: "sport/tennis/player1/ranking", matches: true),
        .init(filter: "+/tennis/#", topic: "sport/tennis", matches: true),
        .init(filter: "+/tennis/#", topic: "sport/golf", matches: false),
        // $ topics are the broker's: not matched by a leading wildcard, only by themselves.
        .init(filter: "#", topic: "$SYS/broker/uptime", matches: false),
        .init(filter: "+/monitor/Clients", topic: "$SYS/monitor/Clients", matches: false),
        .init(filter: "$SYS/#", topic: "$SYS/monitor/Clients", matches: true),
        .init(filter: "$SYS/monitor/+", topic: "$SYS/monitor/Clients", matches: true),
        .init(filter: "a/#", topic: "a/$b", matches: true),
        // Filters that break the rules match nothing.
        .init(filter: "sport/tennis#", topic: "sport/tennis", matches: false),
        .init(filter: "sport/tennis/#/ranking", topic: "sport/tennis/x/ranking", matches: false),
        .init(filter: "sport+", topic: "sport1", matches: false),
        .init(filter: "sport/+tennis", topic: "sport/+tennis", matches: false),
        .init(filter: "", topic: "a", matches: false),
        // A topic is never a wildcard, nor empty.
        .init(filter: "a/+", topic: "a/+", matches: false),
        .init(filter: "a/#", topic: "a/#", matches: false),
        .init(filter: "#", topic: "", matches: false),
    ]

    @Test(arguments: cases)
    func matchesAsMQTTSays(_ example: Case) {
        #expect(TopicFilter.matches(example.filter, topic: example.topic) == example.matches)
    }

    /// Every filter made of up to three levels of `a`, `b`, `+`, `#` against every topic of up
    /// to three levels of `a`, `b`, `` agrees with a reference that expands the wildcards.
    @Test func agreesWithAReferenceOnEveryShortFilterAndTopic() {
        func combinations(_ parts: [String], upTo count: Int) -> [[String]] {
            var all: [[String]] = parts.map { [$0] }
            var last = all
            for _ in 1..<count {
                last = last.flatMap { prefix in parts.map { prefix + [$0] } }
                all += last
            }
            return all
        }
        func reference(_ filter: [String], _ topic: [String]) -> Bool {
            if filter.isEmpty { return topic.isEmpty }
            if filter[0] == "#" { return filter.count == 1 }
            guard !topic.isEmpty else { return filter == ["#"] }
            guard filter[0] == "+" || filter[0] == topic[0] else { return false }
            if filter.count == 2, filter[1] == "#", topic.count == 1 { return true }
            return reference(Array(filter.dropFirst()), Array(topic.dropFirst()))
        }
        var checked = 0
        for filter in combinations(["a", "b", "+", "#"], upTo: 3) {
            let valid = !filter.dropLast().contains("#")
            for topic in combinations(["a", "b", ""], upTo: 3) {
                let text = topic.joined(separator: "/")
                guard !text.isEmpty else { continue }
                let expected = valid && reference(filter, topic)
                #expect(TopicFilter.matches(filter.joined(separator: "/"), topic: text) == expected, "\(filter) \(topic)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
