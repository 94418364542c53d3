import Foundation
import HLSCheck
import HLSReporting
import Testing

@Suite struct GitHubActionsReporterTests {
    let reporter = GitHubActionsReporter()

    @Test(arguments: ["no-audio-only", "compliant"])
    func sampleMatchesGolden(_ sample: String) async throws {
        let output = reporter.render([try await ReportFixtures.sample(sample)])
        #expect(try ReportFixtures.matchesGolden(output, "\(sample).github.txt"), "\(output)")
    }

    @Test func missingAudioOnlyVariantIsAnErrorAnnotation() async throws {
        let output = reporter.render([try await ReportFixtures.sample("no-audio-only")])
        #expect(output == """
            ::error file=Samples/no-audio-only/master.m3u8,line=1,title=hlscheck audio-only-variant-missing::\
            no audio-only variant: add one of at most 64 kbit/s for cellular fallback

            """)
    }

    @Test func compliantStreamAnnotatesNothing() async throws {
        #expect(reporter.render([try await ReportFixtures.sample("compliant")]).isEmpty)
    }

    @Test func oneCommandPerFindingWithItsSeverity() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let lines = reporter.render([awkward.report]).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == awkward.report.diagnostics.count + 1)
        #expect(lines.last == "")
        for (line, diagnostic) in zip(lines, awkward.report.diagnostics) {
            let command = switch diagnostic.severity {
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
        #expect(reporter.render([report]) == """
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
        #expect(reporter.render([report]).split(separator: "\n").map { String($0.split(separator: "::")[0]) } == [
            "warning file=Samples/no-audio-only/master.m3u8,line=1,col=7,title=hlscheck audio-only-variant-missing",
            "notice file=Samples/no-audio-only/master.m3u8,title=hlscheck audio-only-variant-missing",
            "error title=hlscheck audio-only-variant-missing",
        ])
    }
}
