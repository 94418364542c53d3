// swift-tools-version:6.2
import PackageDescription

// Every target: Swift 6 language mode (complete concurrency checking) and internal imports by
// default, so a C type can never leak into a public signature (design.md §3).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault")
]
// FFmpeg, libxml2 and libcurl are not linked: CLazyLibraries loads them on first use, so the
// system-library targets below give their headers only, without pkg-config (whose --libs would
// link them). Debian's FFmpeg headers are on the default include path; libxml2's are not.
let libxml2Headers = "/usr/include/libxml2"
let libxml2Swift: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-I\(libxml2Headers)"])]

let package = Package(
    name: "hlscheck",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "hlscheck", targets: ["hlscheck"]),
        .library(name: "HLSPlaylist", targets: ["HLSPlaylist"]),
        .library(name: "HLSCheck", targets: ["HLSCheck"]),
        // For the fuzz targets in Fuzz/ (a separate package, so `swift build` never needs libFuzzer).
        .library(name: "MediaFormats", targets: ["MediaFormats"]),
        .library(name: "MediaInspection", targets: ["MediaInspection"]),
        .library(name: "HLSPackaging", targets: ["HLSPackaging"]),
        .library(name: "HLSReporting", targets: ["HLSReporting"]),
        .library(name: "HLSEmbedding", targets: ["HLSEmbedding"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The loopback test server only (Tests/HTTPTestServer): HTTP/1.1 and HTTP/2 over TLS, an
        // implementation independent of the client it tests (libcurl). No product depends on them.
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.36.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])
            ]
        ),
        .systemLibrary(
            name: "CLibXML2",
            providers: [.apt(["libxml2-dev"])]
        ),
        // `.hlscheck.yml`. libyaml is linked statically (Debian's libyaml.a, ~100 KB): no library
        // to load at run time, and none of Foundation's ICU-backed API (NSRegularExpression,
        // DateFormatter) that a Swift YAML package would bring in with ~45 MB of ICU data
        // (docs/benchmarks.md, "Build time and binary size").
        .systemLibrary(
            name: "CLibYAML",
            providers: [.apt(["libyaml-dev"])]
        ),
        // http(s) for HLSRemote: libcurl (OpenSSL, nghttp2 for HTTP/2) and zlib, headers only (loaded
        // on first use by CLazyLibraries, like FFmpeg). In place of SwiftNIO, swift-nio-ssl
        // (BoringSSL) and async-http-client, which took most of a first build's time
        // (docs/benchmarks.md, "Build time and binary size").
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev", "zlib1g-dev"])]
        ),
        // A stub for each FFmpeg, libxml2 and libcurl function the Swift code calls, loading the library with
        // dlopen on the first call (Sources/CLazyLibraries/include/CLazyLibraries.h).
        .target(
            name: "CLazyLibraries",
            cSettings: [.unsafeFlags(["-I\(libxml2Headers)", "-fvisibility=hidden"])],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "HLSPlaylist", dependencies: ["FileSystem", "StreamSources"], swiftSettings: strict),
        .target(name: "MediaFormats", swiftSettings: strict),
        // Reading local files safely (regular files only, never a FIFO or a device) and how a URI in
        // a local stream names a file; MediaFormats' byte parsers never touch the file system.
        .target(name: "FileSystem", swiftSettings: strict),
        // What every source of a stream shares, below the sources (local ones in HLSPlaylist and
        // MediaInspection, the remote ones in HLSRemote) and the checker that judges what they saw:
        // delivery records, URI schemes, credential redaction.
        .target(name: "StreamSources", swiftSettings: strict),
        .target(
            name: "MediaInspection",
            dependencies: ["CFFmpeg", "CLazyLibraries", "MediaFormats", "FileSystem", "StreamSources"],
            swiftSettings: strict),
        // The encoders only the packager uses (audio transcoding, poster fitting, the still from
        // the video), over MediaInspection's libav plumbing.
        .target(
            name: "MediaEncoding", dependencies: ["CFFmpeg", "MediaInspection", "MediaFormats", "FileSystem"],
            swiftSettings: strict),
        .target(
            name: "HLSCheck",
            dependencies: [
                "HLSPlaylist", "MediaInspection", "MediaFormats", "FileSystem", "StreamSources", "CLibYAML",
            ],
            swiftSettings: strict,
            linkerSettings: [
                .linkedLibrary(":libyaml.a", .when(platforms: [.linux])),
                .linkedLibrary("yaml", .when(platforms: [.macOS])),
            ]),
        .target(
            name: "HLSReporting",
            dependencies: ["HLSCheck", "CLibXML2", "CLazyLibraries", "MediaFormats", "FileSystem", "StreamSources"],
            swiftSettings: strict + libxml2Swift),
        // embed's rename-without-replacing (renameat2 RENAME_NOREPLACE, which Glibc's Swift module does not export) and
        // flock; the GNU posix_spawn actions and pipe2 the tests' process runner needs.
        // Named CHLSSystem: swift-system (under swift-nio) has a target CSystem, and target names are global.
        .target(name: "CHLSSystem", path: "Sources/CSystem"),
        .target(name: "HLSPackaging", dependencies: ["MediaFormats"], swiftSettings: strict),
        .target(
            name: "HLSEmbedding",
            dependencies: [
                "HLSCheck", "HLSPackaging", "HLSPlaylist", "MediaFormats", "MediaInspection", "MediaEncoding",
                "FileSystem", "CHLSSystem",
            ],
            swiftSettings: strict),
        // http(s) sources for playlists and segments, through libcurl (CurlEngine.swift).
        .target(
            name: "HLSRemote",
            dependencies: ["StreamSources", "HLSPlaylist", "MediaInspection", "CCurl", "CLazyLibraries"],
            swiftSettings: strict),
        .executableTarget(
            name: "hlscheck",
            dependencies: [
                "HLSCheck", "HLSReporting", "HLSPlaylist", "MediaInspection", "HLSEmbedding", "HLSPackaging",
                "HLSRemote", "StreamSources", "FileSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // Shared by the test targets only: temporary folders, the package root, the corpus.
        .target(
            name: "TestSupport", dependencies: ["CLibXML2", "CLazyLibraries", "CHLSSystem"], path: "Tests/TestSupport",
            swiftSettings: strict + libxml2Swift),
        // A loopback HTTP server for the tests: static files and injected faults (Tests/HTTPTestServer).
        .target(
            name: "HTTPTestServer",
            dependencies: [
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            path: "Tests/HTTPTestServer", swiftSettings: strict),
        .testTarget(
            name: "HLSRemoteTests",
            dependencies: ["HLSRemote", "HLSCheck", "HLSPlaylist", "StreamSources", "HTTPTestServer", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HLSPlaylistTests",
            dependencies: ["HLSPlaylist", "HLSCheck", "FileSystem", "StreamSources", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "MediaFormatsTests", dependencies: ["MediaFormats", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "FileSystemTests", dependencies: ["FileSystem", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MediaInspectionTests",
            dependencies: ["MediaInspection", "MediaEncoding", "MediaFormats", "StreamSources", "TestSupport"],
            exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "HLSCheckTests",
            dependencies: [
                "HLSCheck", "HLSPlaylist", "MediaFormats", "MediaInspection", "StreamSources", "TestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HLSPackagingTests",
            dependencies: ["HLSPackaging", "MediaFormats", "MediaInspection", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HLSEmbeddingTests",
            dependencies: [
                "HLSEmbedding", "HLSCheck", "HLSPackaging", "HLSPlaylist", "MediaEncoding", "MediaFormats",
                "TestSupport",
                "HTTPTestServer",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HLSReportingTests",
            dependencies: [
                "HLSReporting", "HLSCheck", "HLSPlaylist", "MediaInspection", "MediaFormats", "FileSystem",
                "StreamSources",
                "TestSupport", "CLibXML2",
            ],
            exclude: ["Golden"], swiftSettings: strict + libxml2Swift),
        .testTarget(
            name: "hlscheckTests", dependencies: ["hlscheck", "TestSupport", "HTTPTestServer"], exclude: ["Golden"],
            swiftSettings: strict),
    ]
)
