import Foundation
import HLSCheck
import HLSReporting
import Testing
import TestSupport

/// Debian's `chromium` (the Makefile's DEB_PACKAGES installs it for `make test`), run headless on
/// one report file, with every way out to the network closed and a watchdog.
struct HeadlessChromium {
    let executable: String
    let profile: TemporaryFolder

    static let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]

    init() throws {
        let found = Self.candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        executable = try #require(found, "no headless browser: install Debian's chromium (make deps does)")
        profile = try TemporaryFolder()
    }

    struct Outcome {
        var status: Int32
        var stdout: Data
        var killedByWatchdog: Bool
    }

    /// Runs the browser on `page` with `arguments`; the watchdog kills it after `timeout` seconds
    /// (a slow 2-core CI machine renders this page in about 5 s).
    func run(_ arguments: [String], page: URL, timeout: TimeInterval = 90) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--user-data-dir=\(profile.path("profile"))",
            // No way out: every host name resolves to nothing, every request goes to a dead proxy.
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
        ] + arguments + [page.absoluteString]
        process.environment = ["HOME": profile.path("home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // The browser exits on its own; only the watchdog's SIGTERM ends it by a signal.
        return Outcome(status: process.terminationStatus, stdout: stdout, killedByWatchdog: process.terminationReason == .uncaughtSignal)
    }
}

/// Width and height from a PNG's IHDR chunk, nil when the bytes are not a PNG.
func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
          Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    func int(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (int(16), int(20))
}

@Suite("HTML report in a headless browser", .serialized)
struct HTMLBrowserTests {
    /// The packed-audio sample's report: video variants, and an audio-only one with a poster.
    static func reportFile(in folder: TemporaryFolder) async throws -> URL {
        let report = try await checkForHTML("Samples/packed-audio/master.m3u8", root: "Samples")
        let html = try HTMLReporter(generated: "2026-11-21 10:00 UTC").render([report])
        try folder.write(Data(html.utf8), to: "report.html")
        return folder.url.appendingPathComponent("report.html")
    }

    @Test func rendersAScreenshotOfTheRequestedSize() async throws {
        let browser = try HeadlessChromium()
        let folder = try TemporaryFolder()
        let page = try await Self.reportFile(in: folder)
        let shot = folder.url.appendingPathComponent("shot.png")
        let outcome = try browser.run(["--screenshot=\(shot.path)", "--window-size=1000,1400"], page: page)
        #expect(!outcome.killedByWatchdog)
        #expect(outcome.status == 0)
        let png = try Data(contentsOf: shot)
        let size = try #require(pngSize(png), "the screenshot is not a PNG")
        #expect(size.width == 1000 && size.height == 1400)
        // A blank or error page of this size compresses to a few KB; charts, text and a photo do not.
        #expect(png.count > 40_000)
    }

    @Test func theRenderedDocumentHoldsTheChartsAndThePosterAndNeedsNoNetwork() async throws {
        let browser = try HeadlessChromium()
        let folder = try TemporaryFolder()
        let page = try await Self.reportFile(in: folder)
        let outcome = try browser.run(["--dump-dom", "--window-size=1000,1400"], page: page)
        #expect(!outcome.killedByWatchdog)
        #expect(outcome.status == 0)
        let dom = String(decoding: outcome.stdout, as: UTF8.self)
        let document = try LibXML2.parseHTML(dom)

        // What the browser built: three charts with their bars, the poster, the findings section.
        let charts = document.find("svg", classes: ["chart"])
        #expect(charts.count == 3)
        #expect(charts.allSatisfy { $0.find("rect", classes: ["bar"]).count == 3 })
        let poster = try #require(document.find("img").first)
        #expect(poster.attributes["src"]?.hasPrefix("data:image/jpeg;base64,/9j/") == true)
        #expect(document.find("p", classes: ["verdict", "pass"]).count == 1)
        #expect(document.find("h3").map(\.text) == ["Variants", "Bit rate per variant", "Poster", "Findings"])

        // Nothing to fetch: no URL in the document leaves it, and its policy forbids any request.
        let references = document.descendants.flatMap { element in
            ["src", "href", "action", "xlink:href", "data", "poster"].compactMap { element.attributes[$0] }
        }
        #expect(!references.isEmpty)
        #expect(references.allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("data:image/") })
        #expect(!dom.contains("http://") && !dom.contains("https://"))
        let policy = document.find("meta").first { $0.attributes["http-equiv"] == "Content-Security-Policy" }
        #expect(policy?.attributes["content"]?.hasPrefix("default-src 'none'") == true)
    }
}
