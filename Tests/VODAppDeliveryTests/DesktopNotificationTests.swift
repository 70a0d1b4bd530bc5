import Testing
import VODAppDelivery
import VODAppNotify
import VODAppPayload
import VODAppReport

@Suite struct DesktopNotificationTests {
    private func item(_ key: String, _ title: String, _ status: ItemReport.Status) -> ItemReport {
        ItemReport(key: key, title: title, url: "http://h/\(key)", status: status)
    }

    @Test func nothingNewMeansNoNotification() {
        #expect(DesktopNotification(announcing: [item("a", "A", .alreadyPresent), item("b", "B", .failed)]) == nil)
    }

    @Test func oneNewVideoIsSingularAndLowUrgency() throws {
        let notification = try #require(DesktopNotification(announcing: [item("a", "Tulips", .downloaded), item("b", "B", .alreadyPresent)]))
        #expect(notification.summary == "1 new video to watch offline")
        #expect(notification.body == "Tulips")
        #expect(!notification.isUrgent)
    }

    @Test func skippedAndFailedAreCountedTimeoutsAmongTheFailed() throws {
        let notification = try #require(DesktopNotification(announcing: [
            item("a", "A", .downloaded), item("b", "B", .tooLarge), item("c", "C", .tooLarge),
            item("d", "D", .failed), item("e", "E", .timedOut), item("f", "F", .invalid),
        ]))
        #expect(notification.body == "A\n2 skipped as too large, 2 failed")
        #expect(notification.isUrgent)
    }

    @Test func titlesFromTheNetworkCannotInjectMarkupOrControlCharacters() throws {
        let notification = try #require(DesktopNotification(announcing: [
            item("a", "<b>Bold</b> & \u{1B}[31mred", .downloaded),
        ]))
        #expect(notification.body == "&lt;b&gt;Bold&lt;/b&gt; &amp;  [31mred")
    }

    /// "Trojan source" titles: an override must not make a title read as another one; the joiner
    /// inside an emoji is not a threat and stays.
    @Test func bidirectionalOverridesAreReplacedAndEmojiJoinersKept() throws {
        let notification = try #require(DesktopNotification(announcing: [
            item("a", "evil\u{202E}4pm.exe\u{2066} 👩\u{200D}💻", .downloaded),
        ]))
        #expect(!notification.body.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2066 })
        #expect(notification.body.contains("👩\u{200D}💻"))
    }

    @Test func anAlertReadsAsThePhoneShowedIt() {
        let full = DesktopNotification(alert: PushAlert(title: "Season 2", subtitle: "Episodes 3-4", body: "Two new videos"))
        #expect(full.summary == "Season 2")
        #expect(full.body == "Episodes 3-4\nTwo new videos")
        #expect(full.category == "transfer")
        #expect(full.replacing == nil)
        let text = DesktopNotification(alert: PushAlert(title: nil, body: "Two new videos"))
        #expect(text.summary == "Two new videos")
        #expect(text.body == "")
    }

    /// The body is read as markup, so it is escaped; the summary is plain text to every server
    /// (the specification's; dunst showed "Tom &amp; Jerry"), so it is not.
    @Test func anAlertFromTheNetworkCannotInjectMarkupOrRunOn() {
        let alert = DesktopNotification(alert: PushAlert(title: "<i>x</i> & y\u{202E}", body: "a\u{7}b & " + String(repeating: "z", count: 1000)))
        #expect(alert.summary == "<i>x</i> & y ")
        #expect(alert.body.hasPrefix("a b &amp; zzz"))
        #expect(alert.body.count < 420)
    }

    @Test func anAlertIsReplacedWhenNothingArrivedOnlyIfSomethingWentWrong() throws {
        #expect(DesktopNotification(replacingAlertAfter: [item("a", "A", .alreadyPresent)]) == nil)
        let replacement = try #require(DesktopNotification(replacingAlertAfter: [item("a", "A", .failed), item("b", "B", .timedOut),
                                                                                 item("c", "C", .tooLarge)]))
        #expect(replacement.summary == "No new video could be fetched")
        #expect(replacement.body == "2 failed, 1 skipped as too large")
        #expect(replacement.isUrgent)
    }
}
