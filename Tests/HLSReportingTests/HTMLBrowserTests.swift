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

    /// Runs the browser on `page` with `arguments`; it is killed at `timeLimit` (a slow 2-core CI
    /// machine renders this page in about 5 s).
    func run(_ arguments: [String], page: URL, timeLimit: Duration = .seconds(90)) throws -> ChildProcess.Outcome {
        let arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--user-data-dir=\(profile.path("profile"))",
                // No way out: every host name resolves to nothing, every request goes to a dead proxy.
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
                "--proxy-bypass-list=<-loopback>",
            ] + arguments + [page.absoluteString]
        // The browser exits on its own; only its time limit (SIGKILL) ends it by a signal.
        return try ChildProcess.capture(
            arguments, executable: executable,
            environment: ["HOME": profile.path("home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
            replacingEnvironment: true, timeLimit: timeLimit)
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

/// What a screenshot shows (Tests/Scripts/png-ink.py): the luma of its top-left pixel and how many
/// pixels of a box differ from it.
struct ScreenshotInk: Decodable {
    var width: Int
    var height: Int
    var background: Int
    var ink: Int

    static func measure(_ png: URL, box: (Int, Int, Int, Int)? = nil) throws -> ScreenshotInk {
        let output = try ChildProcess.run(
            ["python3", PackageRoot.url.appendingPathComponent("Tests/Scripts/png-ink.py").path, png.path]
                + (box.map { [$0.0, $0.1, $0.2, $0.3].map(String.init) } ?? []))
        return try JSONDecoder().decode(ScreenshotInk.self, from: Data(output.utf8))
    }
}

@Suite("HTML report in a headless browser", .serialized)
struct HTMLBrowserTests {
    /// A failing stream and a passing one, as `hlscheck a b --output html=…` writes them; `css`
    /// is added to the page's style sheet (to hide parts of it for a screenshot).
    static func failingReportFile(in folder: TemporaryFolder, css: String = "") async throws -> URL {
        let failing = try await checkForHTML("Samples/no-audio-only/master.m3u8", root: "Samples")
        let passing = try await checkForHTML("Samples/packed-audio/master.m3u8", root: "Samples")
        var html = try HTMLReporter(generated: "2026-11-21 10:00 UTC").render([failing, passing])
        if !css.isEmpty, let end = html.range(of: "</style>") { html.replaceSubrange(end, with: css + "</style>") }
        let name = "report-\(UUID().uuidString).html"
        try folder.write(Data(html.utf8), to: name)
        return folder.url.appendingPathComponent(name)
    }

    func screenshot(_ page: URL, in folder: TemporaryFolder, width: Int, height: Int, _ extra: [String] = []) throws
        -> URL
    {
        let browser = try HeadlessChromium()
        let shot = folder.url.appendingPathComponent("shot-\(UUID().uuidString).png")
        let outcome = try browser.run(
            ["--screenshot=\(shot.path)", "--window-size=\(width),\(height)"] + extra, page: page)
        #expect(!outcome.killedBySignal && outcome.status == 0)
        return shot
    }

    /// The first screen of a report names what fails: with everything but the must-fix summary
    /// made invisible, the top 1000 × 700 pixels still show something, and with that summary
    /// hidden too they show nothing (so the first measure is the summary's text, on screen).
    @Test func theFirstScreenNamesTheFailingRules() async throws {
        let folder = try TemporaryFolder()
        let onlySummary = "body * { visibility: hidden; } .must-fix, .must-fix * { visibility: visible; }"
        let shown = try screenshot(
            try await Self.failingReportFile(in: folder, css: onlySummary), in: folder, width: 1000, height: 700)
        let summaryInk = try ScreenshotInk.measure(shown)
        #expect(summaryInk.ink > 500, "the must-fix summary is not on the first screen: \(summaryInk)")
        let hidden = try screenshot(
            try await Self.failingReportFile(in: folder, css: "body * { visibility: hidden; }"), in: folder,
            width: 1000, height: 700)
        #expect(try ScreenshotInk.measure(hidden).ink == 0)
        // And what the summary says: the rule that fails, linked to its finding.
        let page = try LibXML2.parseHTML(
            try String(contentsOf: try await Self.failingReportFile(in: folder), encoding: .utf8))
        let mustFix = try #require(page.find("section", classes: ["must-fix"]).first)
        #expect(mustFix.find("a").first?.text == "audio-only-variant-missing")
    }

    /// Followed the reader's dark mode: the page's background is dark when the browser prefers it.
    @Test func followsTheReadersDarkMode() async throws {
        let folder = try TemporaryFolder()
        let page = try await Self.failingReportFile(in: folder)
        let light = try ScreenshotInk.measure(try screenshot(page, in: folder, width: 600, height: 300))
        let dark = try ScreenshotInk.measure(
            try screenshot(page, in: folder, width: 600, height: 300, ["--force-dark-mode"]))
        #expect(light.background > 230, "\(light)")
        #expect(dark.background < 40, "\(dark)")
        // Text is drawn on both.
        #expect(light.ink > 300 && dark.ink > 300)
    }

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
        #expect(!outcome.killedBySignal)
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
        #expect(!outcome.killedBySignal)
        #expect(outcome.status == 0)
        let dom = outcome.stdout
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
