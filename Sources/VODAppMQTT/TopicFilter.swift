/// Whether a topic matches a subscription's filter, by MQTT 3.1.1's rules (section 4.7).
///
/// The filter and the topic are split at every `/` into levels (an empty level counts). `+`
/// matches exactly one level, whatever it holds, an empty one too; `#`, only as the last level,
/// matches the rest: any number of levels, none included (`a/#` matches `a`). A topic starting
/// with `$` (`$SYS/…`) is the broker's own and matches no filter starting with a wildcard. Any
/// other level matches only itself, byte for byte. A filter that breaks the rules (`a/#/b`,
/// `a+/b`) matches nothing.
public enum TopicFilter {
    public static func matches(_ filter: String, topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard !filter.isEmpty, !topic.isEmpty, isValid(filterLevels),
              !topic.contains(where: { $0 == "+" || $0 == "#" })
        else { return false }
        if topic.hasPrefix("$"), filterLevels[0] == "+" || filterLevels[0] == "#" { return false }
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+", level != topicLevels[index] { return false }
        }
        return filterLevels.count == topicLevels.count
    }

    /// `#` only as a whole last level, `+` only as a whole level.
    private static func isValid(_ levels: [Substring]) -> Bool {
        for (index, level) in levels.enumerated() {
            if level.contains("#"), level != "#" || index != levels.count - 1 { return false }
            if level.contains("+"), level != "+" { return false }
        }
        return true
    }
}
