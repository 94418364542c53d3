import Foundation
import HLSCheck
import HLSReporting
import TestSupport
import Testing

/// The edit `hlscheck fix` makes, as the reports of `hlscheck check` carry it.
@Suite struct FixReportTests {
    static func ladderReport() async throws -> (CheckReport, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let report = try await Checker(configuration: CheckConfiguration(profile: .appleIOS, file: nil)).check(
            multivariant)
        return (report, folder)
    }

    @Test func jsonFindingsCarryTheLineFixWrites() async throws {
        let (report, _) = try await Self.ladderReport()
        let json = JSONReporter().render([report])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let missing = diagnostics.filter { $0["rule"] as? String == "average-bandwidth-missing" }
        #expect(missing.count == 2)
        for diagnostic in missing {
            let fix = try #require(diagnostic["fix"] as? [String: Any], "\(diagnostic)")
            let text = try #require(fix["text"] as? String)
            #expect(text.hasPrefix("#EXT-X-STREAM-INF:BANDWIDTH=") && text.contains(",AVERAGE-BANDWIDTH="), "\(text)")
            #expect(fix["inserted"] as? Bool == false)
            #expect((fix["uri"] as? String)?.hasSuffix("ladder/master.m3u8") == true)
            #expect((fix["description"] as? String)?.contains("measured average") == true)
        }
        // A finding no measurement settles has none.
        for diagnostic in diagnostics where !FixPlan.fixableRules.contains(diagnostic["rule"] as? String ?? "") {
            #expect(diagnostic["fix"] == nil, "\(diagnostic)")
        }
    }

    @Test(.enabled(if: PythonJSONSchema.isAvailable, "needs ../shared/schemas and python3 with jsonschema"))
    func sarifResultsOfferTheFixAndStayValid() async throws {
        let (report, _) = try await Self.ladderReport()
        let sarif = SARIFReporter().render([report])
        let schema = try #require(PackageRoot.schemas).appendingPathComponent("sarif-schema-2.1.0.json")
        let violations = try PythonJSONSchema.violations(of: sarif, against: schema)
        #expect(violations.isEmpty, "\(violations)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let fixed = results.filter { $0["ruleId"] as? String == "average-bandwidth-missing" }
        #expect(fixed.count == 2)
        for result in fixed {
            let change = try #require(
                ((result["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]])?.first)
            let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
            let region = try #require(replacement["deletedRegion"] as? [String: Any])
            let line = try #require(
                ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]
                    as? [String: Any])
            #expect(
                region["startLine"] as? Int == line["startLine"] as? Int, "the whole line of the finding is replaced")
            #expect(
                ((replacement["insertedContent"] as? [String: Any])?["text"] as? String)?.contains("AVERAGE-BANDWIDTH=")
                    == true)
        }
    }

    @Test func htmlShowsTheProposedLine() async throws {
        let (report, _) = try await Self.ladderReport()
        let html = try HTMLReporter(generated: "now").render([report])
        #expect(html.contains("<code class=\"proposed-line\">#EXT-X-STREAM-INF:BANDWIDTH="), "\(html.prefix(200))")
    }
}
