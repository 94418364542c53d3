package import HLSPlaylist
package import FileSystem

/// The knobs of one check run. Defaults are the `audio-only-64k` contract (design.md §4).
public struct CheckConfiguration: Sendable, Hashable {
    /// The audio-only budget in bit/s (Apple's historic cellular rule: 64 kbit/s).
    public var audioOnlyBudget: Int
    /// How far a measured value may exceed the declared one before a bandwidth rule fires.
    public var bandwidthTolerance: Double
    /// The same for a live variant (no EXT-X-ENDLIST), whose peak and average only need to
    /// stay under the declared values plus this much: 25 % (AS 1.29; the average's 10 % is
    /// `bandwidthTolerance`, AS 1.28). The rfc8216 profile allows none.
    package var liveBandwidthTolerance = 0.25
    /// Read no segment: only the playlists are checked.
    public var playlistOnly: Bool
    /// Per-rule severity overrides; `nil` as a value switches a rule off.
    package var severityOverrides: [String: Severity?]
    /// How many segments are inspected at once (default: both cores of a CI runner).
    package var maxConcurrentSegments: Int
    /// How far EXTINF may differ from the measured duration, in seconds.
    public var durationTolerance: Double
    /// The profile whose severities apply where `severityOverrides` says nothing.
    public var profile: Profile
    /// The peak at or under which a variant serves cellular networks (Apple: 192 kbit/s).
    package var cellularBudget: Int
    /// What one run may read and hold (docs/security.md).
    package var limits = Limits()
    /// The folder a local stream is confined to (`--root`; nil: the input playlist's folder), and
    /// whether files outside it may be read (`--allow-outside-root`).
    package var confinement = Confinement()
    /// Whether audio-only-over-budget and artwork-over-budget judge a stream without any video
    /// (a radio stream): the budget is the fallback for video, so only `audio-only-64k` says yes.
    package var budgetAppliesWithoutVideo: Bool = true
    /// Also decode the audio and video of every segment with libavcodec (`--decode`) and report
    /// what fails to decode (decode-error). Off by default: it costs CPU.
    public var decode: Bool = false
    /// Keep what the HTML report draws in the report: each measured playlist's per-segment bit
    /// rates (`CheckReport.bitrateSeries`) and the bytes of each distinct poster (JPEG/PNG,
    /// bounded: `PosterImage`), read once more per poster. Off, a report holds neither.
    package var keepsSegmentDetail: Bool = false
    /// The existing files the run's reports are to replace (`--output`, `--write-baseline`): the
    /// check says which of the files it read is one of them (`CheckReport.readReportFiles`), so
    /// that no report is written over a playlist or a segment it was made from.
    package var reportFiles: Set<FileIdentity> = []
    /// `--sample N`: read only N segments of each media playlist, spread over it (segments-sampled
    /// says so in the report); nil reads all.
    public var sampleSegments: Int?
    /// `--live-duration`: reload the live playlists for this many seconds (RFC 8216 §6.3.4) and
    /// check what must hold across reloads; nil checks the current window only.
    public var liveWatchSeconds: Double?
    /// Where docs/rules.md is published (`documentation-url` in `.hlscheck.yml`, else this
    /// build's `builtInDocumentationURL`): reports link each rule to its section there. Nil
    /// links nowhere: no report points at a page that may not exist.
    package var documentationURL: String? = CheckConfiguration.builtInDocumentationURL
    /// The page docs/rules.md is published at for this build; nil, as this source publishes
    /// none. A distribution that serves the file sets it here.
    package static let builtInDocumentationURL: String? = nil

    /// The `audio-only-64k` defaults: 64 kbit/s budget (given in bit/s), 10 % bandwidth tolerance,
    /// 0.5 s duration tolerance, 2 segments at once, 192 kbit/s cellular budget.
    package init(
        audioOnlyBudget: Int = SettingBounds.audioOnlyBudget(kbps: SettingBounds.budgetKbps.defaultValue),
        bandwidthTolerance: Double = SettingBounds.bandwidthTolerance.defaultValue, playlistOnly: Bool = false,
        severityOverrides: [String: Severity?] = [:], maxConcurrentSegments: Int = 2,
        durationTolerance: Double = SettingBounds.durationTolerance.defaultValue, profile: Profile = .audioOnly64k,
        cellularBudget: Int = 192_000
    ) {
        self.profile = profile
        self.cellularBudget = cellularBudget
        self.maxConcurrentSegments = maxConcurrentSegments
        self.durationTolerance = durationTolerance
        self.audioOnlyBudget = audioOnlyBudget
        self.bandwidthTolerance = bandwidthTolerance
        self.playlistOnly = playlistOnly
        self.severityOverrides = severityOverrides
    }

    /// The severity a rule reports at, or nil when it is switched off.
    package func severity(for rule: RuleDescription) -> Severity? {
        if let override = severityOverrides[rule.id] { return override }
        switch rule.settings[profile] ?? .on {
        case .off: return nil
        case .severity(let severity): return severity
        case .on: return profile.followsMust(of: rule) ? .error : rule.defaultSeverity
        }
    }
}

extension Int {
    /// `formattedBitrate`, but never the same text as `limit`'s when the values differ: a peak of
    /// 64 090 bit/s against a 64 kbit/s budget is "64.1 kbit/s", not "64 kbit/s"; where one
    /// decimal still rounds to the limit's text, the exact "64 040 bit/s".
    package func formattedBitrate(beside limit: Int) -> String {
        let plain = formattedBitrate
        guard self != limit, plain == limit.formattedBitrate else { return plain }
        if magnitude < 1_000_000, limit.magnitude < 1_000_000 {
            func tenths(_ value: Int) -> Int { Int((Double(value) / 100).rounded()) }
            if tenths(self) != tenths(limit) {
                let value = tenths(self)
                return "\(value < 0 ? "-" : "")\(value.magnitude / 10).\(value.magnitude % 10) kbit/s"
            }
        }
        return "\(self.groupedDigits) bit/s"
    }

    /// "64 040", "1 234 567": digits in groups of three, as the messages write bit counts.
    var groupedDigits: String {
        let digits = String(magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += " " }
            out.append(digit)
        }
        return (self < 0 ? "-" : "") + out
    }

    /// "64 kbit/s", "1.2 Mbit/s": bit rates as a reader wants them.
    /// Total on every Int (Int.max and negative values included): rounds on the magnitude, so
    /// no addition can overflow.
    package var formattedBitrate: String {
        let sign = self < 0 ? "-" : ""
        let value = magnitude
        func rounded(_ unit: UInt) -> UInt { value / unit + (value % unit >= unit / 2 ? 1 : 0) }
        if value >= 1_000_000 {
            let tenths = rounded(100_000)
            return "\(sign)\(tenths / 10).\(tenths % 10) Mbit/s"
        }
        if value >= 10_000 { return "\(sign)\(rounded(1000)) kbit/s" }
        let tenths = rounded(100)
        return "\(sign)\(tenths / 10).\(tenths % 10) kbit/s"
    }
}
