// swift-tools-version:6.2
import PackageDescription

/// Where GLib's and libnotify's headers are: what `pkg-config --cflags libnotify` says on Debian,
/// which SwiftPM would only give a target that also links the libraries (a system library target).
let glibHeaders: [CSetting] = {
    #if arch(arm64)
    let triplet = "aarch64-linux-gnu"
    #else
    let triplet = "x86_64-linux-gnu"
    #endif
    return [.unsafeFlags(["-I/usr/include/glib-2.0", "-I/usr/lib/\(triplet)/glib-2.0/include",
                          "-I/usr/include/gdk-pixbuf-2.0", "-I/usr/include/libpng16"])]
}()

let package = Package(
    name: "vodapp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vodapp", targets: ["vodapp"]),
        .executable(name: "vodapp-push", targets: ["vodapp-push"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // NIOHTTPTypes: the HTTP parts a handler in Hummingbird's pipeline sees.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // The test harness's child processes: spawned with every signal at its default and no
        // descriptor of the test process but 0-2.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        // libcurl (headers from libcurl4-openssl-dev), loaded at its first call rather than linked:
        // include/CCurl.h says why. The only code that knows libcurl's variadic calls: typed inline
        // wrappers in the header.
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        // What the libraries loaded at their first call share: opening one and finding its functions.
        .target(name: "CLibraryLoader"),
        // Linux file calls Swift's Glibc module leaves out (they need _GNU_SOURCE).
        .target(name: "CFileShims"),
        // GLib, GObject and GIO (the device's conditions, GLib's log lines) and libnotify (the
        // desktop notification), loaded at their first use: include/CGio.h says why. Their headers
        // (libglib2.0-dev, libnotify-dev) are seen by these targets' C files alone.
        .target(name: "CGio", dependencies: ["CLibraryLoader"], cSettings: glibHeaders),
        .target(name: "CLibNotify", dependencies: ["CGio", "CLibraryLoader"], cSettings: glibHeaders),
        // libxml2's reader, loaded when the first DASH manifest is read; its headers are where
        // `pkg-config --cflags libxml-2.0` says.
        .target(name: "CLibXML2", dependencies: ["CLibraryLoader"], cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // FFmpeg's libavformat (with libavcodec and libavutil): the mux of a stream's parts.
        // Loaded at the first mux (dlopen), not linked: include/CAVFormat.h says why. The
        // headers come from libavformat-dev, libavcodec-dev and libavutil-dev.
        .target(name: "CAVFormat", dependencies: ["CLibraryLoader"]),
        // libmosquitto, the Eclipse Mosquitto client: MQTT subscriptions and publications.
        // Loaded at its first call, as libcurl is (include/CMosquitto.h).
        .target(name: "CMosquitto", dependencies: ["CLibraryLoader"]),
        // The libraries, bottom to top (docs/ARCHITECTURE.md draws them). None prints, parses
        // arguments or knows an exit code; none imports a target above it.
        //
        // What every layer shares: units, the budget, untrusted text, safe file opening, the
        // stop request, and `Attention`, what a library has to tell the person running it.
        .target(
            name: "VODAppBase",
            dependencies: [
                "CFileShims",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The vocabulary every layer shares, as pure values: a media URL as libcurl parses it, and
        // the item key's grammar.
        .target(
            name: "VODAppModel",
            dependencies: ["CCurl"]
        ),
        // What a run of transfers does, as pure values: requests and outcomes, the scheduler
        // (queue, retries, per-host limits, the bandwidth planner), the response validator, the
        // media sniffer, where credentials may go. No socket, no clock, no libcurl.
        .target(
            name: "VODAppTransferPolicy",
            dependencies: [
                "VODAppBase",
                "VODAppModel",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Fetching over the network: libcurl's multi interface driven by the transfer policy.
        // Knows nothing of DIR, the store or reports.
        .target(
            name: "VODAppTransfer",
            dependencies: [
                "VODAppTransferPolicy",
                .product(name: "SystemPackage", package: "swift-system"),
                "VODAppBase",
                "VODAppModel",
                "CCurl",
                "CFileShims",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // HLS, as pure values: playlists read (RFC 8216), the variant and audio chosen, the
        // segments' limits and decryption.
        .target(
            name: "VODAppHLS",
            dependencies: [
                "VODAppBase",
                "VODAppModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // DASH, as pure values: a manifest read (ISO/IEC 23009-1) and its tracks made into the
        // media playlists the HLS plan already fetches.
        .target(
            name: "VODAppDASH",
            dependencies: ["VODAppBase", "VODAppModel", "VODAppHLS", "CLibXML2"]
        ),
        // FFmpeg's libavformat muxing a stream's parts into the one MP4 a viewer keeps.
        .target(
            name: "VODAppMux",
            dependencies: [
                "VODAppBase",
                "VODAppModel",
                "CAVFormat",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Streams (HLS, DASH) fetched: the plan of their parts handed to the transfer engine,
        // their subtitles, and the parts muxed into one file.
        .target(
            name: "VODAppStreams",
            dependencies: [
                "VODAppDASH",
                "VODAppHLS",
                "VODAppMux",
                "VODAppTransferPolicy",
                "VODAppModel",
                .product(name: "SystemPackage", package: "swift-system"),
                "VODAppBase",
                "VODAppTransfer",
                "CFileShims",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // An MQTT broker, through libmosquitto: a persistent QoS 1 subscription that reconnects
        // with jittered backoff, and a publication that waits for the broker's acknowledgement.
        .target(
            name: "VODAppMQTT",
            dependencies: [
                "VODAppBase",
                "CMosquitto",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What a push carries and how it is checked: the JSON, the payload rules, the playlist
        // items, where a payload came from, and the webhook signature.
        .target(
            name: "VODAppPayload",
            dependencies: [
                .product(name: "SystemPackage", package: "swift-system"),
                "VODAppBase",
                "VODAppModel",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // DIR on disk: names, placing, locks, the playlist file, the work area, durability.
        .target(
            name: "VODAppMediaDirectory",
            dependencies: [
                .product(name: "SystemPackage", package: "swift-system"),
                "VODAppBase",
                "VODAppModel",
                "VODAppPayload",
                "CFileShims",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // What DIR's SQLite store keeps (GRDB): items, the delivery log, and the ledger a
        // delivery writes them through.
        .target(
            name: "VODAppStore",
            dependencies: [
                "VODAppBase",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_interrupt on one connection: GRDB interrupts only a whole pool.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The desktop notification, through libnotify.
        .target(
            name: "VODAppNotify",
            dependencies: [
                "VODAppBase",
                "CLibNotify",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // What the device says about fetching now (a metered network, power saver), through GIO.
        .target(
            name: "VODAppDevice",
            dependencies: ["CGio"]
        ),
        // What a delivery decides, as pure values: retention and --sync's removals, when to retry
        // or defer, which sizes it remembers as too large.
        .target(
            name: "VODAppDeliveryPolicy",
            dependencies: ["VODAppDevice", "VODAppMediaDirectory", "VODAppModel", "VODAppPayload", "VODAppStore", "VODAppBase"]
        ),
        // What a delivery tells, as values: the report and each item's line, the dry run's
        // preview, the status of DIR, and the exit status a report means. CommandSupport renders
        // them; the library never prints.
        .target(
            name: "VODAppReport",
            dependencies: ["VODAppDeliveryPolicy", "VODAppHLS", "VODAppMediaDirectory", "VODAppNotify", "VODAppStore", "VODAppStreams", "VODAppTransferPolicy", "VODAppBase"]
        ),
        // The pipeline that composes them: plan, transfer, place, record, notify, report.
        .target(
            name: "VODAppDelivery",
            dependencies: [
                "VODAppDeliveryPolicy",
                "VODAppReport",
                "VODAppHLS",
                "VODAppTransferPolicy",
                "VODAppModel",
                "VODAppBase",
                "VODAppTransfer",
                "VODAppStreams",
                "VODAppPayload",
                "VODAppMediaDirectory",
                "VODAppStore",
                "VODAppNotify",
                "VODAppDevice",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What keeps an HTTP receiver standing against hostile peers: a cap on connections that
        // sheds the slowest, header and body deadlines, a shared allowance for buffered bodies,
        // a 404 that costs nothing, and warnings that cannot flood the log.
        .target(
            name: "VODAppHTTPGuards",
            dependencies: [
                "VODAppBase",
                "VODAppPayload",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The receivers of `vodapp listen`: UDP datagrams and a Hummingbird HTTP endpoint feeding
        // one bounded queue of deliveries.
        .target(
            name: "VODAppListen",
            dependencies: [
                "VODAppHTTPGuards",
                "VODAppDeliveryPolicy",
                "VODAppReport",
                "CFileShims",
                .product(name: "SystemPackage", package: "swift-system"),
                "VODAppBase",
                "VODAppPayload",
                "VODAppMediaDirectory",
                "VODAppNotify",
                "VODAppDelivery",
                "VODAppMQTT",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The push simulator: payload checks, UDP datagrams, signed POSTs, and the end-to-end demo.
        .target(
            name: "VODAppPush",
            dependencies: [
                "VODAppReport",
                "VODAppBase",
                "VODAppTransfer",
                "VODAppPayload",
                "VODAppMediaDirectory",
                "VODAppNotify",
                "VODAppDelivery",
                "VODAppListen",
                "VODAppSamples",
                "VODAppMQTT",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Sample media over HTTP on loopback, with the failure modes that break downloaders.
        // Used by the test suite and by vodapp-push serve/demo.
        .target(
            name: "VODAppSamples",
            dependencies: [
                // gzip, for the fault of a server encoding a body nobody asked it to encode.
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            // The clips (SampleMedia/) are compiled in at build time, not committed as source.
            plugins: ["EmbedSampleMedia"]
        ),
        // Writes the Swift file holding the sample clips, for the plugin below.
        .executableTarget(name: "sample-media-embedder"),
        .plugin(
            name: "EmbedSampleMedia",
            capability: .buildTool(),
            dependencies: ["sample-media-embedder"]
        ),
        // What both executables share: logging set-up and how a failure is reported.
        .target(
            name: "CommandSupport",
            dependencies: [
                "CFileShims",
                "VODAppDeliveryPolicy",
                "VODAppReport",
                "VODAppTransferPolicy",
                "CGio",
                "VODAppBase",
                "VODAppTransfer",
                "VODAppStore",
                "VODAppStreams",
                "VODAppDelivery",
                "VODAppListen",
                "VODAppMQTT",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vodapp",
            dependencies: [
                "VODAppDeliveryPolicy",
                "VODAppReport",
                "VODAppTransferPolicy",
                "VODAppModel",
                .product(name: "SystemPackage", package: "swift-system"),
                "VODAppBase",
                "VODAppTransfer",
                "VODAppPayload",
                "VODAppMediaDirectory",
                "VODAppNotify",
                "VODAppStreams",
                "VODAppDelivery",
                "VODAppListen",
                "VODAppMQTT",
                "CommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vodapp-push",
            dependencies: [
                "VODAppBase",
                "VODAppPayload",
                "VODAppMediaDirectory",
                "VODAppNotify",
                "VODAppDelivery",
                "VODAppPush",
                "VODAppSamples",
                "VODAppListen",
                "CommandSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What unit tests share: scratch folders, the sample server, tools, fixtures. It links no
        // feature library but the sample server's, so a unit test target compiles only what it tests.
        .target(
            name: "UnitTestSupport",
            dependencies: ["VODAppSamples", "VODAppBase",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Subprocess", package: "swift-subprocess")],
            path: "Tests/UnitTestSupport"
        ),
        // What end-to-end tests add: the built executables, listeners, brokers, nginx, buses.
        .target(
            name: "TestSupport",
            dependencies: ["UnitTestSupport", "VODAppPush", "VODAppPayload", "VODAppTransfer",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Subprocess", package: "swift-subprocess")],
            path: "Tests/TestSupport"
        ),
        // Unit tests, one target per library, mirroring its folders.
        .testTarget(
            name: "VODAppBaseTests",
            dependencies: [
                "VODAppBase",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "VODAppStoreTests", dependencies: ["VODAppStore", "VODAppBase", "UnitTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "VODAppTransferPolicyTests",
            dependencies: [ "VODAppTransferPolicy", "VODAppModel", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "VODAppTransferTests",
            dependencies: ["VODAppTransferPolicy", "VODAppModel", "VODAppTransfer", "VODAppSamples", "UnitTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "VODAppMQTTTests", dependencies: ["VODAppMQTT", "TestSupport", "UnitTestSupport", .product(name: "Logging", package: "swift-log"),
                                                          .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .testTarget(name: "VODAppStreamsTests", dependencies: ["VODAppDASH", "VODAppHLS", "VODAppMux", "VODAppTransferPolicy", "VODAppModel", "VODAppStreams", "UnitTestSupport"]),
        .testTarget(name: "VODAppDeliveryPolicyTests", dependencies: ["VODAppDevice", "VODAppStore", "VODAppDeliveryPolicy"]),
        .testTarget(name: "VODAppModelTests", dependencies: ["VODAppModel"]),
        .testTarget(name: "VODAppPayloadTests", dependencies: ["VODAppModel", "VODAppPayload",]),
        .testTarget(name: "VODAppMediaDirectoryTests", dependencies: ["VODAppModel", "VODAppMediaDirectory",]),
        .testTarget(
            name: "VODAppDeliveryTests",
            dependencies: [
                           "VODAppDeliveryPolicy",
                           "VODAppReport",
"VODAppDelivery", "VODAppMediaDirectory", "VODAppPayload", "VODAppNotify", "VODAppStore", "VODAppDevice", "VODAppBase", "CommandSupport",
                           "VODAppSamples", "UnitTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // The router through HummingbirdTesting, and the queue and the datagram receiver in process.
        .testTarget(
            name: "VODAppListenTests",
            dependencies: [
                           "VODAppHTTPGuards",
                           "VODAppReport",
                           "VODAppTransferPolicy",
"VODAppListen", "VODAppDelivery", "VODAppPayload", "VODAppMediaDirectory", "VODAppBase",
                           "VODAppMQTT", "UnitTestSupport",
                           .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
        .testTarget(
            name: "VODAppPushTests",
            dependencies: [
                           "VODAppReport",
"VODAppPush", "VODAppDelivery", "VODAppNotify", "VODAppBase", "VODAppSamples", "CommandSupport", "UnitTestSupport",
                           .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .testTarget(
            name: "VODAppSamplesTests",
            dependencies: ["VODAppSamples", "VODAppPayload", "VODAppDelivery"]
        ),
        .testTarget(
            name: "CommandSupportTests",
            dependencies: ["CommandSupport", "VODAppStreams", "VODAppBase", "VODAppPayload", "VODAppMediaDirectory", "VODAppMQTT", "VODAppDelivery", "VODAppReport", "UnitTestSupport", .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        // The built executables, run as a user runs them, against real servers.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["VODAppSamples", "VODAppPush", "VODAppPayload", "TestSupport", "UnitTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The executables' code laid out hot first. Each function of vodapp's own targets gets a section of
// its own in a release build (much of the Swift runtime, its standard library and Foundation come
// so), and lld places the functions scripts/hot-text/order.txt names, those vodapp runs in its
// usual commands, together, in that order. A run then touches a few contiguous megabytes of code
// instead of a page here and there in all 27: the kernel maps 64 KiB around each page a process
// touches, so scattered code cost every delivery 14 MiB of resident text. Relative relocations are
// packed (RELR: ld.so read 2.9 MB of them at every start), and nothing is exported (36,000 symbols
// that nothing loads) but the one answer GnuTLS asks the executable for (Sources/CCurl/gnutls.c).
// scripts/hot-text/generate writes the list.
let releaseOnly = BuildSettingCondition.when(configuration: .release)
let cTargets: Set<String> = ["CAVFormat", "CCurl", "CFileShims", "CGio", "CLibNotify", "CLibXML2", "CLibraryLoader", "CMosquitto"]
for target in package.targets where [.regular, .executable].contains(target.type) && !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"], releaseOnly)]
}
let hotText = String(#filePath.dropLast("Package.swift".count)) + "scripts/hot-text/order.txt"
for target in package.targets where ["vodapp", "vodapp-push"].contains(target.name) {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(hotText)",
                                                                          "-Xlinker", "--no-warn-symbol-ordering",
                                                                          "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                                          "-Xlinker", "--no-export-dynamic",
                                                                          "-Xlinker", "--export-dynamic-symbol=_gnutls_global_init_skip"], releaseOnly)]
}
