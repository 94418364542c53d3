import Foundation
import HLSCheck
import HLSReporting
import Testing
import TestSupport

@Suite struct CoverageDocumentationTests {
    /// docs/coverage.md is generated from the requirements catalogue and the rules: a requirement
    /// or a rule mapping changed without regenerating it fails here, with the command that fixes it.
    @Test func docsCoverageMatchesTheCatalogue() throws {
        let committed = try String(
            contentsOf: PackageRoot.url.appendingPathComponent("docs/coverage.md"), encoding: .utf8)
        #expect(
            CoverageDocumentation.markdown() == committed,
            "docs/coverage.md is out of date with the requirements catalogue or the rules: regenerate it with `\(CoverageDocumentation.regenerateCommand)`"
        )
    }

    /// The counts at the top are those of the rows below them.
    @Test func theSummaryCountsTheRows() {
        let result = SpecCoverage.compute([
            ("codecs-missing", "AS 9.1", "MUST", ""),
            ("discontinuity-missing", "AS 7.1", "MUST", ""),
            ("codecs-missing", "bis-22 §4.4.6.2", "SHOULD", "CODECS"),
        ])
        let markdown = CoverageDocumentation.markdown(result)
        let apple = result.requirements.filter { $0.requirement.source == .apple }
        let appleMusts = apple.filter { $0.requirement.level == .must && $0.requirement.isCheckable }.count
        let appleShoulds = apple.filter { $0.requirement.level == .should && $0.requirement.isCheckable }.count
        let appleNotCheckable = apple.filter { !$0.requirement.isCheckable }.count
        #expect(
            markdown.contains(
                "| Apple HLS Authoring Specification | 1 of \(appleMusts) | 1 | \(appleMusts - 2) | 0 of \(appleShoulds) | 0 | \(appleShoulds) | \(appleNotCheckable) |"
            ))
        let bis = result.requirements.filter { $0.requirement.source == .bis }
        let bisShoulds = bis.filter { $0.requirement.level == .should && $0.requirement.isCheckable }.count
        #expect(markdown.contains("| 1 of \(bisShoulds) | 0 | \(bisShoulds - 1) |"))
        #expect(
            markdown.contains(
                "| 9.1 | MUST | EXT-X-STREAM-INF has CODECS. | [`codecs-missing`](rules.md#codecs-missing) |"))
        #expect(markdown.contains("| 7.1 | MUST |"))
        #expect(markdown.contains("[`discontinuity-missing`](rules.md#discontinuity-missing) — partial: "))
        #expect(
            markdown.contains(
                "| 8.24 | SHOULD | A live playlist whose Last-Modified is more than three target durations before its Date counts as invalid. | not checked — needs the HTTP response headers |"
            ))
        #expect(
            markdown.contains(
                "| §4.4.6.2 (§4.3.4.2) | SHOULD | Every EXT-X-STREAM-INF has CODECS. | [`codecs-missing`]"))
    }
}
