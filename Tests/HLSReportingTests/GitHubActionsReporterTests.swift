import Foundation
import HLSCheck
import HLSReporting
import Testing
import TestSupport

@Suite struct GitHubActionsReporterTests {
    let reporter = GitHubActionsReporter()

    /// The workflow commands of `output` without the `::group::` lines around each stream.
    static func annotations(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("::group::") && !$0.hasPrefix("::endgroup::") }.joined(separator: "\n")
    }

    @Test(arguments: ["no-audio-only", "compliant"])
    func sampleMatchesGolden(_ sample: String) async throws {
        let output = reporter.render([try await ReportFixtures.sample(sample, rules: ReportFixtures.goldenRules)])
        try Golden.expect(output, matches: "Tests/HLSReportingTests/Golden/\(sample).github.txt")
    }

    @Test func missingAudioOnlyVariantIsAnErrorAnnotation() async throws {
        let output = reporter.render([try await ReportFixtures.sample("no-audio-only")])
        #expect(
            output == """
                ::group::hlscheck Samples/no-audio-only/master.m3u8: fails (1 error)
                ::error file=Samples/no-audio-only/master.m3u8,line=1,title=hlscheck audio-only-variant-missing::\
                no audio-only variant: add one of at most 64 kbit/s for cellular fallback
                ::endgroup::

                """)
    }

    @Test func compliantStreamAnnotatesNothing() async throws {
        #expect(
            reporter.render([try await ReportFixtures.sample("compliant")]) == """
                ::group::hlscheck Samples/compliant/master.m3u8: passes
                ::endgroup::

                """)
    }

    @Test func oneCommandPerFindingWithItsSeverity() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let lines = Self.annotations(reporter.render([awkward.report])).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == awkward.report.diagnostics.count + 1)
        #expect(lines.last == "")
        for (line, diagnostic) in zip(lines, awkward.report.diagnostics) {
            let command =
                switch diagnostic.severity {
                case .error: "::error "
                case .warning: "::warning "
                case .note: "::notice "
                }
            #expect(line.hasPrefix(command))
            // What the runner shows once it has decoded the message.
            let message = line.components(separatedBy: "::").dropFirst(2).joined(separator: "::")
                .replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%0D", with: "\r")
                .replacingOccurrences(of: "%25", with: "%")
            #expect(message == diagnostic.message)
            #expect(line.contains(",title=hlscheck \(diagnostic.rule)::"))
        }
    }

    @Test func escapesPathTitleAndMessage() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        var diagnostic = try #require(awkward.report.diagnostics.first { $0.rule == "target-duration-exceeded" })
        let location = try #require(diagnostic.location)
        diagnostic.message = "50% over\r\nnext: a, b"
        diagnostic.rule = "odd:rule,id"
        var report = awkward.report
        report.diagnostics = [diagnostic]

        let folder = awkward.folder.url.path
        #expect(
            Self.annotations(reporter.render([report])) == """
                ::error file=\(folder)/we%2Cird%3A50%25&<x>"q'%0Aname/video/index.m3u8,line=\(location.line),\
                title=hlscheck odd%3Arule%2Cid::50%25 over%0D%0Anext: a, b

                """)
    }

    @Test func omitsUnknownLineAndColumn() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        var withColumn = report.diagnostics[0]
        withColumn.location?.column = 7
        withColumn.severity = .warning
        var wholeFile = report.diagnostics[0]
        wholeFile.location?.line = 0
        wholeFile.severity = .note
        var nowhere = report.diagnostics[0]
        nowhere.location = nil
        report.diagnostics = [withColumn, wholeFile, nowhere]
        #expect(
            Self.annotations(reporter.render([report])).split(separator: "\n").map {
                String($0.split(separator: "::")[0])
            } == [
                "warning file=Samples/no-audio-only/master.m3u8,line=1,col=7,title=hlscheck audio-only-variant-missing",
                "notice file=Samples/no-audio-only/master.m3u8,title=hlscheck audio-only-variant-missing",
                "error title=hlscheck audio-only-variant-missing",
            ])
    }

    /// GitHub keeps 10 annotations per type and step: the rest are plain lines, counted at the end.
    @Test func atMostTenAnnotationsOfEachTypeThenSaysHowManyMore() async throws {
        var first = try await ReportFixtures.sample("no-audio-only")
        let template = first.diagnostics[0]
        first.diagnostics = (1...8).map { line in
            var diagnostic = template
            diagnostic.location?.line = line
            return diagnostic
        }
        var second = first
        second.input = "Samples/other/master.m3u8"
        var warning = template
        warning.severity = .warning
        second.diagnostics += [warning, warning]  // 16 errors and 2 warnings in all
        let output = reporter.render([first, second])
        let lines = output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 2)
        // The six errors past the limit are still in the log, as compiler-style lines.
        #expect(
            lines.filter { $0.hasPrefix("Samples/no-audio-only/master.m3u8:") && $0.contains(" error: ") }.count == 6)
        #expect(
            lines.last
                == "hlscheck: GitHub keeps 10 annotations of each type per step; not annotated: 6 more errors. They are listed above in their stream's group; the job summary lists the first 200 findings; --format json lists every one."
        )
        // One group per stream, each closed.
        #expect(
            lines.filter { $0.hasPrefix("::group::") } == [
                "::group::hlscheck Samples/no-audio-only/master.m3u8: fails (8 errors)",
                "::group::hlscheck Samples/other/master.m3u8: fails (8 errors, 2 warnings)",
            ])
        #expect(lines.filter { $0 == "::endgroup::" }.count == 2)
        // Under the limit, no such line.
        #expect(!reporter.render([second]).contains("not annotated"))
    }

    @Test func summaryIsAMarkdownTableOfStreamsAndFindings() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let reports = [try await ReportFixtures.sample("compliant"), awkward.report, ReportFixtures.unreadable]
        let summary = reporter.summary(reports)
        let lines = summary.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.prefix(4) == [
                "### hlscheck", "", "| stream | verdict | errors | warnings | notes | variants |",
                "|---|---|---:|---:|---:|---:|",
            ])
        #expect(lines[4] == "| Samples/compliant/master.m3u8 | ✅ passes | 0 | 0 | 0 | 3 |")
        #expect(lines[6] == "| streams/gone.m3u8 | ❌ could not be checked | 1 | 0 | 0 | 0 |")
        // The awkward path: every Markdown and HTML special escaped, the newline shown, one row.
        #expect(
            lines[5].hasPrefix("| ")
                && lines[5].contains(#"we,ird:50%&amp;&lt;x&gt;"q'\\x0aname/master.m3u8 | ❌ fails | 2 | 1 | 1 | 2 |"#),
            "\(lines[5])")
        // No documentation URL configured: the rule id, no link that may lead nowhere.
        #expect(summary.contains("| `playlist-unreadable` |"))
        #expect(!summary.contains("](http"))
        var linked = awkward.report
        linked.documentationURL = "https://docs.example/rules"
        #expect(
            reporter.summary([linked]).contains(
                "| [playlist-unreadable](https://docs.example/rules#playlist-unreadable) |"))
        #expect(summary.contains(#"a&amp;b&lt;c&gt;%,:"q"."#))
        #expect(!summary.contains("<c>"))
        #expect(reporter.summary([]) == "### hlscheck\n\nNo stream to check.\n\n")
    }
}
