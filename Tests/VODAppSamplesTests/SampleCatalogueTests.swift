import Foundation
import Testing
import VODAppDelivery
import VODAppPayload
import VODAppSamples

/// The sample playlist the demo and `vodapp-push serve` push: VODApp's own five items, each
/// served by a route of the sample server, three of them small enough to arrive.
struct SampleCatalogueTests {
    static let baseURL = "http://127.0.0.1:9932"

    @Test func itIsTheOriginalPlaylistInItsOrder() {
        #expect(SampleCatalogue.entries.map(\.key) == [
            "f3058e6662927f1fcd17840469cfd5f3", "05747156e369eff34cbecb40a2adda6a", "27da99954cbcf488fb02a145079f3bb9",
            "f61c3d7f92b199ed7f5812781ccba06f", "9f49077a912f958530060272d6d60d30",
        ])
        #expect(SampleCatalogue.entries.map(\.title) == [
            "Tulips", "Unicorns and horses spining around", "Big Buck Bunny Movie", "Superb sunset - Miami Beach 2017",
            "Sam Smith, Normani - Dancing With A Stranger",
        ])
        #expect(SampleCatalogue.entries.map(\.subtitle) == [nil, nil, "Animated movie yeah", nil, "Official video (Ft. Normani)"])
        #expect(SampleCatalogue.defaultPort == 9932)
    }

    /// Three real clips under the 20 MiB limit; two generated bodies over it, one with a length
    /// (dropped from its headers) and one chunked (dropped as it streams).
    @Test func everyEntryIsServedByARouteOfItsSize() throws {
        for entry in SampleCatalogue.entries {
            let route = SampleRoute(path: entry.path, query: [:])
            if let clip = entry.clip {
                #expect(route == .media(clip.name), "\(entry.title)")
                #expect(entry.bytes == Int64(try #require(SampleMedia.bytes(named: clip.name)).count))
                #expect(entry.bytes <= DeliveryOptions.defaultMaximumSize, "\(entry.title)")
            } else {
                #expect(entry.bytes > DeliveryOptions.defaultMaximumSize, "\(entry.title)")
            }
        }
        #expect(SampleRoute(path: SampleCatalogue.entries[2].path, query: [:]) == .bytes(26_214_400))
        #expect(SampleRoute(path: SampleCatalogue.entries[4].path, query: [:]) == .chunked(25_165_824))
    }

    /// The payload is one vodapp accepts, its items in the catalogue's order, each pointing at
    /// the server it was made for.
    @Test func thePayloadIsAPushVodappTakesPointingAtTheServer() throws {
        let text = SampleCatalogue.payload(baseURL: Self.baseURL)
        let payload = try Payload(data: Data(text.utf8))
        #expect(payload.items.map(\.key) == SampleCatalogue.entries.map(\.key))
        #expect(payload.validItems.count == 5)
        #expect(payload.items.map(\.title) == SampleCatalogue.entries.map { Optional($0.title) })
        #expect(payload.items.map(\.urlString) == SampleCatalogue.entries.map { Optional(Self.baseURL + $0.path) })
        #expect(text.hasPrefix("{\n  \"aps\": {\"content-available\": 1},\n  \"playlist\": {\n"))
        #expect(text.hasSuffix("\n  }\n}\n"))

        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let playlist = try #require(object["playlist"] as? [String: [String: String]])
        for entry in SampleCatalogue.entries {
            #expect(playlist[entry.key]?["subtitle"] == entry.subtitle, "\(entry.title)")
        }
    }
}
