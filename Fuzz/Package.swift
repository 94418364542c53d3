// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for hlscheck's parsers (docs/security.md, "Fuzzing and sanitizers").
// A package of its own so that the main package's `swift build` / `swift test` never need the
// libFuzzer runtime. Build and run through the Makefile (`make fuzz`), which passes
// `-sanitize=fuzzer,address`; each target is an executable whose `main` is libFuzzer's.
let package = Package(
    name: "hlscheck-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "hlscheck", path: "..")
    ],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", .product(name: "HLSPackaging", package: "hlscheck")]),
    ]
        + [
            ("fuzz-playlist", ["HLSPlaylist"]),
            ("fuzz-attribute-list", ["HLSPlaylist"]),
            ("fuzz-id3", ["MediaFormats"]),
            ("fuzz-transport-stream", ["MediaFormats", "HLSPackaging"]),
            ("fuzz-adts", ["MediaFormats", "HLSPackaging"]),
            ("fuzz-iso-box", ["MediaFormats", "HLSPackaging"]),
            ("fuzz-segment", ["MediaInspection"]),
            ("fuzz-check", ["HLSCheck", "HLSPlaylist", "HLSReporting", "MediaInspection"]),
            ("fuzz-configuration", ["HLSCheck"]),
        ].map { name, products in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "hlscheck") },
                // `@main` in a file of its own: the entry point hands control to libFuzzer's driver.
                swiftSettings: [.unsafeFlags(["-parse-as-library"])],
                // Gold (the default on Debian) fails with an internal error on ASan + libFuzzer
                // objects; the toolchain's lld links them.
                linkerSettings: [.unsafeFlags(["-use-ld=lld"])])
        }
)
