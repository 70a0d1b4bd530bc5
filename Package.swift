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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The only code that knows libcurl's variadic calls: typed inline wrappers in shim.h.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
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
                "CCurl",
                "CLibNotify",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Sample media over HTTP on loopback, with the failure modes that break downloaders.
        // Used by the test suite and (later) by vodapp-push serve/demo.
        .target(
            name: "VODAppSamples",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "vodapp",
            dependencies: [
                "VODAppCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vodapp-push",
            dependencies: [
                "VODAppSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["VODAppSamples"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "VODAppCoreTests",
            dependencies: ["VODAppCore", "VODAppSamples", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["VODAppSamples", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
