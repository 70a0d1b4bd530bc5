// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "vodapp",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vodapp", targets: ["vodapp"]),
        .executable(name: "vodapp-push", targets: ["vodapp-push"]),
        .library(name: "VODAppCore", targets: ["VODAppCore"]),
        .library(name: "VODAppSamples", targets: ["VODAppSamples"]),
        .library(name: "VODAppListen", targets: ["VODAppListen"]),
        .library(name: "VODAppPush", targets: ["VODAppPush"]),
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
        // The test harness's child processes: spawned with every signal at its default and no
        // descriptor of the test process but 0-2.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        // The only code that knows libcurl's variadic calls: typed inline wrappers in shim.h.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Linux file calls Swift's Glibc module leaves out (they need _GNU_SOURCE).
        .target(name: "CFileShims"),
        // zlib, for the sample server's gzip-encoded fault.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CLibNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        // The library that does all the work: no argument parsing, no printing.
        .target(
            name: "VODAppCore",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "CCurl",
                "CFileShims",
                "CLibNotify",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The receivers of `vodapp listen`: UDP datagrams and a Hummingbird HTTP endpoint feeding
        // one bounded queue of deliveries.
        .target(
            name: "VODAppListen",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VODAppCore",
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
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VODAppCore",
                "VODAppListen",
                "VODAppSamples",
                "CCurl",
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
                "CZlib",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // What both executables share: logging set-up and how a failure is reported.
        .target(
            name: "CommandSupport",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VODAppCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vodapp",
            dependencies: [
                "CommandSupport",
                "VODAppCore",
                "VODAppListen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vodapp-push",
            dependencies: [
                "CommandSupport",
                "VODAppCore",
                "VODAppSamples",
                "VODAppPush",
                "VODAppListen",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["VODAppSamples", "VODAppPush", "VODAppCore",
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Subprocess", package: "swift-subprocess")],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "VODAppCoreTests",
            dependencies: ["VODAppCore", "VODAppSamples", "TestSupport"]
        ),
        .testTarget(
            name: "VODAppListenTests",
            dependencies: ["VODAppListen", "VODAppCore", "VODAppSamples", "TestSupport", .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .testTarget(
            name: "VODAppPushTests",
            dependencies: ["VODAppPush", "VODAppCore", "CommandSupport", "TestSupport", .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["VODAppSamples", "VODAppPush", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
