import FoundationEssentials
import MediaFormats
import HLSPlaylist

extension CheckConfiguration {
    /// The configuration `hlscheck check` starts from before its flags: `profile` (else the
    /// file's profile, else `audio-only-64k`), then the file's settings (budget, tolerances,
    /// per-rule severities).
    package init(profile: Profile?, file: ConfigurationFile?) {
        self.init()
        (profile ?? file?.profile ?? .audioOnly64k).configure(&self)
        file?.apply(to: &self)
    }
}

extension ConfigurationFile {
    /// The lowest severity that fails a stream under this file's `failOn` (`error`, `warning`,
    /// or nil for `never`); `error` when the file does not say.
    package var failureThreshold: Severity? {
        switch failOn {
        case "never": nil
        case "warning": .warning
        default: .error
        }
    }
}

extension Checker {
    /// Checks one playlist, or every stream in a folder, as `hlscheck check PATH` does without
    /// flags: the configuration file given, else the nearest `.hlscheck.yml` / `.yaml` / `.json`
    /// in the input's folder or above it, decides the profile, budget, severities, ignored
    /// playlists and what fails (`CheckReport.fails`). `adjust` then changes what a command-line
    /// flag would (for example `playlistOnly`), after the file.
    ///
    /// Never throws: an input that cannot be checked (missing, not a playlist, a broken
    /// configuration file) is a report with an `input-unreadable` error, as in every CLI report.
    ///
    /// ```swift
    /// let reports = await Checker.check("streams/show/master.m3u8")
    /// for report in reports where report.fails {
    ///     for finding in report.diagnostics where !finding.suppressed {
    ///         print(finding.location.uri, finding.location.line, finding.rule, finding.message)
    ///     }
    /// }
    /// ```
    public static func check(
        _ path: String, configurationFile: String? = nil, profile: Profile? = nil,
        adjust: (inout CheckConfiguration) -> Void = { _ in }
    ) async -> [CheckReport] {
        let file: ConfigurationFile?
        let inputs: [String]
        var discovered = DiscoveredPlaylists()
        do throws(CheckError) {
            if let configurationFile {
                file = try ConfigurationFile.load(configurationFile)
            } else {
                file = try ConfigurationFile.discover(from: StreamDiscovery.folder(of: path))
            }
            let ignore = IgnorePatterns(base: file?.folder ?? ".", patterns: file?.ignore ?? [])
            inputs = try StreamDiscovery.inputs([path], ignore: ignore.matches, keeping: &discovered)
            if inputs.isEmpty {
                throw CheckError(
                    "\(path): no playlist found (a folder is searched for .m3u8 and .m3u files that no other playlist there references)"
                )
            }
        } catch {
            return [CheckReport(input: path, error: error)]
        }
        var configuration = CheckConfiguration(profile: profile, file: file)
        adjust(&configuration)
        // A folder is the root of the streams found in it, as on the command line.
        if configuration.confinement.root == nil, StreamDiscovery.isFolder(path) {
            configuration.confinement.root = path
        }
        // A folder's playlists were read by discovery: the check reuses them while unchanged.
        let checker = Checker(
            configuration: configuration,
            source: discovered.count > 0
                ? DiscoveredPlaylistSource(
                    discovered: discovered, base: LocalFileSource(maximumSize: configuration.limits.playlistBytes))
                : nil)
        var reports: [CheckReport] = []
        for input in inputs {
            var report: CheckReport
            do {
                report = try await checker.check(input)
            } catch {
                report = CheckReport(input: input, error: error)
            }
            report.failureThreshold = file?.failureThreshold ?? .error
            reports.append(report)
        }
        return reports
    }
}

extension StreamDiscovery {
    /// The folder a configuration file is searched from: the path itself when it is a folder,
    /// else the folder it is in.
    package static func folder(of path: String) -> String {
        if isFolder(path) { return path }
        let parent = PathString.parent(path)
        return parent.isEmpty ? "." : parent
    }
}
