/// Every rule hlscheck knows, in the order `hlscheck rules` lists them.
public enum RuleCatalogue {
    /// One instance of every rule.
    public static let all: [any Rule] = [
        InputUnreadableRule(),
        PlaylistSyntaxRule(),
        PlaylistLenientRule(),
        VersionTooLowRule(),
        PlaylistUnreadableRule(),
        URIOutsideRootRule(),
        TargetDurationExceededRule(),
        IFramesOnlyMissingRule(),
        MediaGroupInvalidRule(),
        CodecsMissingRule(),
        AudioOnlyVariantMissingRule(),
        AudioOnlyOverBudgetRule(),
        ArtworkOverBudgetRule(),
        ArtworkMissingRule(),
        ArtworkInconsistentRule(),
        ArtworkInvalidRule(),
        BandwidthBelowPeakRule(),
        BandwidthAbovePeakRule(),
        AverageBandwidthMismatchRule(),
        CodecsMismatchRule(),
        CodecsSampleEntryMismatchRule(),
        AudioOnlyContainsVideoRule(),
        ResolutionMismatchRule(),
        FrameRateMismatchRule(),
        ExtinfDurationMismatchRule(),
        PackedAudioTimestampMissingRule(),
        SegmentUnreadableRule(),
        ContinuityErrorRule(),
        SegmentStartsWithoutKeyframeRule(),
        DiscontinuityMissingRule(),
        TimestampsMisalignedRule(),
        TargetDurationInconsistentRule(),
        LowLatencyInvalidRule(),
        LiveWindowShortRule(),
        DateRangeInvalidRule(),
        SessionMetadataInvalidRule(),
        SegmentEncryptedRule(),
        DecodeErrorRule(),
        CellularVariantMissingRule(),
        AverageBandwidthMissingRule(),
        ResolutionMissingRule(),
        AudioOnlyVariantPresentRule(),
        PlaylistTypeMissingRule(),
        FrameRateMissingRule(),
        IndependentSegmentsMissingRule(),
        IFramePlaylistMissingRule(),
        LanguageMissingRule(),
        LiveSegmentsTooFewRule(),
        ProgramDateTimeMissingRule(),
        SuppressionUnknownRuleRule(),
        SuppressionUnusedRule(),
        // Remote delivery and live reloads (docs/remote.md).
        PlaylistContentTypeRule(),
        RedirectToHTTPRule(),
        DeliveryRetriedRule(),
        TLSNotVerifiedRule(),
        LiveMediaSequenceRegressedRule(),
        LiveDiscontinuitySequenceRule(),
        LiveTargetDurationChangedRule(),
        LiveSegmentChangedRule(),
        LivePlaylistStaleRule(),
        SegmentsSampledRule(),
    ]

    /// The description of every rule, in catalogue order.
    public static var descriptions: [RuleDescription] { all.map { type(of: $0).description } }

    /// The description of the rule with id `id`, nil when there is none.
    public static func description(of id: String) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }
}
