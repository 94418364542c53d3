import Foundation
import HLSCheck
import HLSReporting
import Testing
import TestSupport

@Suite struct RuleDocumentationTests {
    /// docs/rules.md is generated from the catalogue: a rule added or reworded without
    /// regenerating it fails here, with the command that fixes it.
    @Test func docsRulesMatchesTheCatalogue() throws {
        let committed = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(
            RuleDocumentation.markdown() == committed,
            "docs/rules.md is out of date with the rule catalogue: regenerate it with `\(RuleDocumentation.regenerateCommand)`"
        )
    }

    @Test func everyRuleHasAnAnchoredSectionAndARow() {
        let markdown = RuleDocumentation.markdown()
        for rule in RuleCatalogue.descriptions + [] {
            #expect(markdown.contains("\n## \(rule.id)\n\n**\(rule.name).** \(rule.summary)\n"))
            #expect(markdown.contains("| [`\(rule.id)`](#\(rule.id)) |"))
        }
        #expect(markdown.contains("\n## input-unreadable\n"))
        // A link only where a documentation page is configured.
        #expect(
            RuleDocumentation.url(for: "codecs-missing", documentation: "https://docs.example/rules.html")
                == "https://docs.example/rules.html#codecs-missing")
        #expect(RuleDocumentation.url(for: "codecs-missing", documentation: nil) == nil)
    }
}

@Suite struct ReportPathsTests {
    let paths = ReportPaths(root: "/repo", workingDirectory: "/repo/streams/a")

    @Test(arguments: [
        ("master.m3u8", "streams/a/master.m3u8"),
        ("./x/../master.m3u8", "streams/a/master.m3u8"),
        ("../b//c/./v.m3u8", "streams/b/c/v.m3u8"),
        ("../../../repo/z.m3u8", "z.m3u8"),
        ("/repo/streams/../top.m3u8", "top.m3u8"),
        ("/repo", "."),
        ("/elsewhere/../other/x.m3u8", "/other/x.m3u8"),
        ("../../../outside.m3u8", "/outside.m3u8"),
        ("/repository/x.m3u8", "/repository/x.m3u8"),
        ("https://cdn.example/a/../b.m3u8", "https://cdn.example/a/../b.m3u8"),
        ("file:///repo/f.m3u8", "f.m3u8"),
    ])
    func shownRelativeToTheRootNormalised(_ path: String, _ shown: String) {
        #expect(paths.display(path) == shown)
    }

    @Test func resolveTurnsAShownPathBackIntoAFile() {
        #expect(paths.resolve("streams/a/master.m3u8") == "/repo/streams/a/master.m3u8")
        #expect(paths.resolve("/other/x.m3u8") == "/other/x.m3u8")
        #expect(paths.resolve("https://cdn.example/x.m3u8") == nil)
    }

    @Test func theRootIsTheGitWorkTreeOfTheFirstInputElseTheFallback() throws {
        let folder = try TemporaryFolder([
            "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/s/m.m3u8": "#EXTM3U\n", "plain/m.m3u8": "#EXTM3U\n",
        ])
        let inRepo = ReportPaths.forRun(inputs: ["repo/s/m.m3u8"], fallback: nil, workingDirectory: folder.url.path)
        #expect(inRepo.display("repo/s/m.m3u8") == "s/m.m3u8")
        let plain = ReportPaths.forRun(inputs: ["plain/m.m3u8"], fallback: "plain", workingDirectory: folder.url.path)
        #expect(plain.display("plain/m.m3u8") == "m.m3u8")
        // A folder given as input is searched from itself: `hlscheck .` at the top of a checkout.
        let dot = ReportPaths.forRun(inputs: ["."], fallback: nil, workingDirectory: folder.path("repo"))
        #expect(dot.root == folder.path("repo"))
        let none = ReportPaths.forRun(inputs: ["plain/m.m3u8"], fallback: nil, workingDirectory: folder.url.path)
        #expect(none.display("plain/m.m3u8") == "plain/m.m3u8")
    }

    @Test func aReportsPathsAllMove() async throws {
        let report = try await ReportFixtures.sample("no-audio-only")
        let moved = ReportPaths(root: PackageRoot.url.path + "/Samples", workingDirectory: PackageRoot.url.path).apply(
            to: report)
        #expect(moved.input == "no-audio-only/master.m3u8")
        #expect(moved.diagnostics.compactMap(\.location?.uri) == ["no-audio-only/master.m3u8"])
        #expect(moved.variants.map(\.playlist) == ["compliant/v0/index.m3u8", "compliant/v1/index.m3u8"])
        #expect(moved.variants.map(\.uri) == report.variants.map(\.uri), "URIs as written are not paths of the report")
    }
}
