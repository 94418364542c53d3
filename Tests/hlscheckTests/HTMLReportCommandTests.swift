import Foundation
import TestSupport
import Testing

@Suite struct HTMLReportCommandTests {
    /// Every bundled container (MPEG-TS, packed audio, fMP4) shows its poster: the check reads it
    /// back from a segment of each.
    @Test(arguments: [("compliant", 3), ("packed-audio", 3), ("fmp4", 3)])
    func writesAPageWithThePosterOfEachSample(_ sample: String, variants: Int) throws {
        let folder = try TemporaryFolder()
        let result = try HLSCheckBinary.run([
            "Samples/\(sample)/master.m3u8", "--root", "Samples", "--output", "html=\(folder.path("report.html"))",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The page went to a file: standard output says what it found and where the page is.
        #expect(
            result.stdout
                == "1 stream checked: 0 errors, 0 warnings, 0 notes\nThe html report is in \(folder.path("report.html"))\n"
        )
        let html = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
        let page = try LibXML2.parseHTML(html)
        #expect(page.find("p", classes: ["verdict", "pass"]).count == 1)
        #expect(page.find("svg", classes: ["chart"]).count == variants)
        let sources = page.find("img").compactMap { $0.attributes["src"] }
        #expect(sources.count == 1)
        #expect(sources.allSatisfy { $0.hasPrefix("data:image/jpeg;base64,/9j/") })
    }

    /// Reports show paths relative to the root (`--root` here, outside any git work tree): the
    /// charts must follow the variants' playlists through that rewriting.
    @Test func anAbsoluteInputRunFromElsewhereStillHasEveryChart() throws {
        let folder = try TemporaryFolder()
        let samples = PackageRoot.url.appendingPathComponent("Samples").path
        let result = try HLSCheckBinary.run(
            ["\(samples)/fmp4/master.m3u8", "--root", samples, "--output", "html=report.html"], in: folder.url)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let page = try LibXML2.parseHTML(try String(contentsOfFile: folder.path("report.html"), encoding: .utf8))
        #expect(page.find("svg", classes: ["chart"]).count == 3)
    }

    /// With several inputs, one that cannot be read is a section of its own, "Not checked", and
    /// the run still writes the page (exit code 2).
    @Test func anUnreadableInputIsASectionOfItsOwn() throws {
        let result = try HLSCheckBinary.run([
            "Samples/packed-audio/master.m3u8", "Samples/missing.m3u8", "--root", "Samples", "--playlist-only",
            "--format", "html",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        let page = try LibXML2.parseHTML(result.stdout)
        let sections = page.find("section", classes: ["stream"])
        #expect(
            sections.map { $0.find("h2").first?.text } == ["Samples/packed-audio/master.m3u8", "Samples/missing.m3u8"])
        #expect(sections.last?.find("p", classes: ["verdict", "fail"]).first?.text.hasPrefix("Not checked") == true)
        #expect(sections.last?.find("p", classes: ["input-error"]).isEmpty == false)
        // --playlist-only reads no segment: no chart, no poster, and the page says why.
        #expect(page.find("svg").isEmpty && page.find("img").isEmpty)
        #expect(sections.first?.find("p", classes: ["no-chart"]).count == 3)
    }
}
