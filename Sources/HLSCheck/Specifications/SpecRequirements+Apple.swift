// The MUSTs and SHOULDs of Apple's HLS Authoring Specification for Apple Devices, items 1–2,
// 6–10 and 14, with the iOS and tvOS amendments to those items, paraphrased. Items without a
// RFC 2119 keyword (MAY, tables, lower-case "should") are left out.

extension SpecRequirements {
    static let appleRequirements: [SpecRequirement] = [
        // 1. Video encoding
        .apple("1.1", .must, "Video is H.264/AVC, HEVC/H.265, Dolby Vision or AV1."),
        .apple("1.2", .must, "H.264 video is in fMP4 or MPEG-TS."),
        .apple("1.3a", .should, "Some H.264 variants are at most High Profile, Level 4.1."),
        .apple("1.3b", .must, "H.264 is at most High Profile, Level 5.2."),
        .apple("1.3b", platform: "tvOS", .must, "H.264 is at most High Profile, Level 5.1."),
        .apple("1.4", .should, "H.264 uses High Profile rather than Main or Baseline."),
        .apple("1.5", .must, "HEVC video is in fMP4."),
        .apple("1.6a", .should, "Some HEVC variants are at most Main 10 Profile, Level 4.0, Main Tier."),
        .apple("1.6b", .must, "HEVC is at most Main 10 Profile, Level 5.1, High Tier."),
        .apple(
            "1.6b", platform: "iOS", .must,
            "iOS raises item 1.6b's limit to Level 6.0 (its text names H.264 High Profile)."),
        .apple(
            "1.7", .must, "HDR HEVC video is HDR10, HLG or Dolby Vision."),
        .apple(
            "1.8", .should, "HDR10 static metadata SEI sits in the hvcC box, not in the samples.",
            gap: "needs parsing SEI NAL units"),
        .apple("1.9", .must, "Dolby Vision is Profile 5 at Level 7 or lower."),
        .apple("1.9a", platform: "iOS", .must, "Dolby Vision is Profile 5 or Profile 10 at Level 9 or lower."),
        .apple("1.9b", platform: "iOS", .should, "Some Dolby Vision variants are Profile 5 at Level 7 or lower."),
        .apple(
            "1.10", .should,
            "Parameter sets are in the sample descriptions (avc1, hvc1, dvh1), not in the samples (avc3, hev1, dvhe)."),
        .apple("1.11", .should, "The level is no higher than the resolution and frame rate need."),
        .apple("1.12", .should, "Some video is H.264."),
        .apple("1.13", .should, "Key frames (IDR) come every two seconds."),
        .apple("1.14", .must, "Interlaced sources are deinterlaced."),
        .apple("1.15", .should, "30i is deinterlaced to 60p rather than 30p.", notCheckable: sourceMaterial),
        .apple(
            "1.16", .should, "Live video from NTSC or ATSC sources runs at 60 or 59.94 fps.",
            notCheckable: sourceMaterial),
        .apple("1.17", .should, "Live video from PAL sources runs at 50 fps.", notCheckable: sourceMaterial),
        .apple("1.18", .should, "VOD keeps the content's natural frame rate.", notCheckable: sourceMaterial),
        .apple("1.19", .must, "No video runs above 60 fps."),
        .apple("1.20", .should, "HDR content is also offered at 30 fps or less."),
        .apple("1.20", platform: "tvOS", .must, "HDR content is also offered at 30 fps or less."),
        .apple(
            "1.21", .should, "A stream uses one colour space: Rec. 601, Rec. 709, DCI-P3 or Rec. 2020.", gap: needsVUI),
        .apple("1.22", .should, "VOD keeps the source's colour space.", notCheckable: sourceMaterial),
        .apple(
            "1.23", .should, ["bandwidths"],
            "Each video codec family (H.264, HEVC, HDR) covers all anticipated bandwidths.",
            notCheckable: "the anticipated bandwidths are the author's"),
        .apple(
            "1.23", .should, ["switch codecs"], "Clients need not switch codecs.",
            notCheckable: "describes client behaviour"),
        .apple("1.24", .must, "SDR video is provided."),
        .apple("1.25", platform: "tvOS", .should, "No 145 kbit/s variant is offered."),
        .apple("1.26", .must, "For VOD, the average segment bit rate is within 10 % of AVERAGE-BANDWIDTH."),
        .apple("1.27", .must, "For VOD, the measured peak bit rate is within 10 % of BANDWIDTH."),
        .apple(
            "1.28", .must, "For live, the average bit rate over about an hour stays below 110 % of AVERAGE-BANDWIDTH.",
            gap: "the average is measured over the playlist and the --live-duration watch, not over an hour"),
        .apple("1.29", .must, "For live, the measured peak bit rate stays below 125 % of BANDWIDTH."),
        .apple("1.30", .should, "For VOD, the peak bit rate is at most twice the average."),
        .apple("1.32", .should, "The default (first) video variant is the 2000 kbit/s average one."),
        .apple(
            "1.32a", platform: "iOS", .should, "Over Wi-Fi, the default video variant is the 2000 kbit/s average one.",
            notCheckable: "the playlist does not say which network it is served on"),
        .apple(
            "1.32b", platform: "iOS", .should,
            "Over cellular, the default video variant is the 730 kbit/s average one.",
            notCheckable: "the playlist does not say which network it is served on"),
        .apple("1.33", .should, "All video variants have the same aspect ratio."),
        .apple("1.34", .should, "With UHD, some UHD variants are at most 15 Mbit/s."),
        .apple(
            "1.35", .should, "HDR10 carries mastering display colour volume and content light level SEI.",
            gap: "needs parsing SEI NAL units"),
        .apple("1.36", .must, "MV-HEVC is used only for stereo video.", gap: "needs the video's stereo metadata"),
        .apple("1.37", .must, "AV1 is at Level 6.2 or lower."),
        .apple("1.38", .must, "APMP monoscopic video is HEVC.", gap: "needs the video's projection metadata"),
        .apple("1.39", .must, "AV1 video is in fMP4."),
        // 2. Audio encoding
        .apple("2.1", .should, "Audio is an elementary audio stream or fMP4."),
        .apple("2.3", .must, "Stereo AAC-LC, HE-AAC v1 or HE-AAC v2 audio is provided."),
        .apple("2.4", .should, "HE-AAC is not used above 64 kbit/s."),
        .apple(
            "2.6", .must, "Where Dolby Digital Plus reaches devices without it, Dolby Digital is provided too.",
            notCheckable: "which devices a stream reaches is not in the stream"),
        .apple("2.8", platform: "tvOS", .should, "Dolby Atmos is offered at one bit rate."),
        .apple("2.11", .must, "A channel layout change comes with EXT-X-DISCONTINUITY."),
        .apple(
            "2.12", .must, "Audio description is marked CHARACTERISTICS=\"public.accessibility.describes-video\".",
            notCheckable: intent),
        .apple("2.13", .must, "Audio description has AUTOSELECT=YES."),
        .apple(
            "2.14", .should, "The NAME of audio description says it is audio description.",
            notCheckable: "needs understanding the text"),
        .apple("2.15", .must, "Alternative audio and audio description last the whole content."),
        .apple("2.17", .must, "A media segment holds at most one audio stream."),
        .apple(
            "2.18", .should,
            "Loudness or dynamic range control metadata is present unless all content shares one level.",
            notCheckable: "whether all content shares one level is not stated"),
        .apple("2.19", .should, ["ludt"], "fMP4 audio other than APAC carries a loudness box (ludt)."),
        .apple("2.19", .must, ["APAC"], "APAC audio carries no loudness box."),
        .apple(
            "2.20", .should, "Without a loudness box, AC-3 and E-AC-3 loudness is set by dialnorm.",
            notCheckable: "every AC-3 frame has a dialnorm; its truth needs a loudness measurement"),
        .apple(
            "2.21", .should, ["prog_ref_level"],
            "Without a loudness box, AAC dialog loudness is given by prog_ref_level or a loudnessInfo payload.",
            gap: "needs parsing AAC extension payloads"),
        .apple(
            "2.21", .must,
            "An AAC loudnessInfo has a sample or true peak level, measurementSystem 2 and methodDefinition 1 or 2.",
            gap: "needs parsing AAC extension payloads"),
        .apple(
            "2.21", .should, ["methodDefinition"], "For video content, methodDefinition is 2.",
            gap: "needs parsing AAC extension payloads"),
        .apple(
            "2.22", .must, ["Basic Loudness"],
            "xHE-AAC carries the basic loudness metadata of ISO/IEC 23003-4 Table I.5.",
            gap: "needs parsing USAC loudness metadata"),
        .apple(
            "2.22", .must, ["peak"], "xHE-AAC loudness metadata has a sample or true peak level.",
            gap: "needs parsing USAC loudness metadata"),
        .apple(
            "2.22", .should, "For video content, xHE-AAC's methodDefinition is 2.",
            gap: "needs parsing USAC loudness metadata"),
        .apple(
            "2.23", .must, "The loudness value is the content's actual loudness.",
            gap: "needs decoding the audio and measuring its loudness"),
        .apple(
            "2.24", .must, "HE-AAC in fMP4 signals SBR explicitly."),
        .apple("2.25", .must, "xHE-AAC, Apple Lossless, FLAC and APAC audio are in fMP4."),
        .apple("2.26", .should, "Non-Dolby multichannel audio comes with multichannel AAC too."),
        .apple("2.27", .must, "Audio description has a LANGUAGE naming the language of the descriptions."),
        .apple(
            "2.30", .must, "APAC carries loudness and DRC metadata in the stream.",
            gap: "needs an APAC bitstream parser"),
        .apple("2.31", .should, "APAC immersive audio comes with stereo AAC too."),
        // 6. Trick play
        .apple("6.1", .must, "I-frame playlists (EXT-X-I-FRAME-STREAM-INF) are provided."),
        .apple("6.2", .should, "Dense I-frame renditions of one frame per second are provided."),
        .apple(
            "6.4", .should, "An I-frame playlist is made from the source of the lowest bit rate at its resolution.",
            notCheckable: sourceMaterial),
        .apple(
            "6.5", .should,
            "An I-frame playlist's bit rate is the normal one at its resolution times its frame rate over eight."),
        .apple("6.6", .should, "Several I-frame playlists of different bit rates are provided."),
        .apple("6.8", .must, "I-frame playlists carry EXT-X-I-FRAMES-ONLY."),
        .apple(
            "6.9", .must, "The peak segment bit rate of I-frame playlists is computed as the HLS specification says."),
        .apple("6.10", .must, "In fMP4, I-frame segments include the moof of their I-frame."),
        .apple("6.11", .must, "For live, I-frame playlists have the same target duration as the other media."),
        .apple("6.14", .should, "Some trick play content is H.264."),
        .apple("6.15", .should, "HDR trick play, if provided, covers every resolution."),
        .apple("6.16", .must, "SDR trick play streams are provided."),
        .apple("6.16", platform: "tvOS", .must, "SDR trick play streams are provided."),
        // 7. Media segmentation
        .apple(
            "7.1", .must, "Media is continuous across segments, except at ad and other inserted transitions.",
            gap:
                "the timestamps and the encoding (container, tracks, codecs, picture size, sample rate) are compared at unmarked joins; whether the content itself continues is not judged"
        ),
        .apple("7.2", .must, "In MPEG-TS, continuity counters and timestamps are sequential."),
        .apple(
            "7.3", .must,
            "In fMP4, each fragment's decode time follows on from the previous segment's decode time and duration."),
        .apple("7.4", .must, "Video segments start with an IDR frame."),
        .apple("7.5", .should, "The target duration is 6 seconds."),
        .apple("7.6", .should, "Segments last nominally 6 seconds."),
        .apple("7.7", .must, "No segment exceeds the target duration by more than 0.5 s."),
        .apple(
            "7.8", .should, "Each xHE-AAC segment starts with an immediate playout frame.",
            gap: "needs parsing USAC frames"),
        .apple(
            "7.9", .must, "Each APAC segment starts with an audio synchronization packet.",
            gap: "needs an APAC bitstream parser"),
        // 8. Media playlists
        .apple(
            "8.1", .must,
            "The EXTINF durations of any run of segments add up to the real duration within one video frame."),
        .apple("8.2", .must, "Audio and video playlists have the same target duration."),
        .apple("8.3", .must, "Audio and video playlists cover the same duration of content."),
        .apple("8.4", .must, "Every live media playlist has EXT-X-PROGRAM-DATE-TIME."),
        .apple(
            "8.5", .should, "EXT-X-PROGRAM-DATE-TIME matches the content's air time.",
            notCheckable: "the air time is not in the stream"),
        .apple("8.6", .must, "VOD media playlists have EXT-X-PLAYLIST-TYPE:VOD."),
        .apple(
            "8.7", .must, "All VOD media playlists of an asset cover the same media time range."),
        .apple("8.8", .must, "Event-style media playlists have EXT-X-PLAYLIST-TYPE:EVENT.", gap: needsReloads),
        .apple(
            "8.9", .must, "Separate audio streams are declared with EXT-X-MEDIA.",
            notCheckable: "an undeclared audio stream cannot be told from an audio-only variant"),
        .apple("8.10", .must, "Every EXT-X-MEDIA other than TYPE=VIDEO has LANGUAGE."),
        .apple("8.11", .must, "A live playlist holds at least six segments."),
        .apple("8.12", .should, "A live playlist holds at least 15 minutes of content."),
        .apple("8.12", platform: "tvOS", .should, "A live playlist holds at least 120 minutes of content."),
        .apple("8.13", .must, "Breaks of encoding continuity are marked with EXT-X-DISCONTINUITY."),
        .apple("8.14", .must, "A video frame rate change is marked with EXT-X-DISCONTINUITY."),
        .apple(
            "8.15", .must, "All variants and renditions have discontinuities at the same times.",
            gap:
                "live windows are placed by EXT-X-PROGRAM-DATE-TIME or by their segments' media timestamps; two undated windows that are not measured (WebVTT subtitles, --playlist-only) are placed by EXTINF from the first break both hold, whose own time is not compared, and not at all when they share none"
        ),
        .apple("8.16", .should, "Codecs do not change at discontinuities."),
        .apple(
            "8.17", .must,
            "A live playlist that will ever carry EXT-X-DISCONTINUITY always has EXT-X-DISCONTINUITY-SEQUENCE."),
        .apple("8.18", .must, "Media requests are not redirected, except for ads."),
        .apple(
            "8.19", .should, "Interstitial and programme boundaries are marked with EXT-X-DATERANGE.",
            notCheckable: "the boundaries are not in the stream"),
        .apple("8.20", .must, "fMP4 media playlists have EXT-X-MAP."),
        .apple("8.21", .should, "Metadata goes in the playlist (EXT-X-DATERANGE) rather than in timed metadata."),
        .apple(
            "8.22", .should, "All audio and video variants and renditions have segment boundaries at the same times.",
            gap: "segments are paired by media sequence number, not by time"),
        .apple(
            "8.23", .should,
            "A media playlist whose xHE-AAC segments start with an IPF has EXT-X-INDEPENDENT-SEGMENTS.",
            gap: "needs parsing USAC frames"),
        .apple(
            "8.24", .should,
            "A live playlist whose Last-Modified is more than three target durations before its Date counts as invalid.",
            gap: needsHeaders),
        .apple(
            "8.25", .should, "A media playlist whose APAC segments start with an ASP has EXT-X-INDEPENDENT-SEGMENTS.",
            gap: "needs an APAC bitstream parser"),
        // 9. Multivariant playlist
        .apple("9.1", .must, "EXT-X-STREAM-INF has CODECS."),
        .apple("9.2", .must, "EXT-X-STREAM-INF of a variant with video has RESOLUTION."),
        .apple("9.3", .must, "EXT-X-I-FRAME-STREAM-INF has CODECS."),
        .apple("9.4", .must, "EXT-X-I-FRAME-STREAM-INF has RESOLUTION."),
        .apple("9.5", .should, "Video and audio are delivered as separate streams."),
        .apple("9.6", .must, "Multichannel audio is a separate audio stream."),
        .apple(
            "9.7", .must, "Alternative audio (languages, commentary, audio description) is in separate audio streams.",
            notCheckable: "whether muxed audio is an alternative is not stated"),
        .apple("9.8", .must, "With several video angles, audio is in separate streams."),
        .apple("9.9", .must, "Video is offered at several bit rates."),
        .apple("9.10", .should, "HD content has at least two variants at the highest resolution."),
        .apple(
            "9.11", .should,
            "Video segments that start with an IDR are announced with EXT-X-INDEPENDENT-SEGMENTS in the multivariant playlist."
        ),
        .apple(
            "9.12", .must,
            "Without it there, every video media playlist whose segments start with an IDR has EXT-X-INDEPENDENT-SEGMENTS."
        ),
        .apple("9.13", .must, "BANDWIDTH is the largest sum of peak segment bit rates of any playable combination."),
        .apple("9.14", .must, "EXT-X-STREAM-INF has AVERAGE-BANDWIDTH."),
        .apple("9.15", .must, "EXT-X-STREAM-INF of a variant with video has FRAME-RATE."),
        .apple("9.16", .must, "VIDEO-RANGE is given unless all video is SDR."),
        .apple("9.18", .should, "EXT-X-CONTENT-STEERING has PATHWAY-ID."),
        .apple("9.19", .must, "If one variant has SCORE, every variant has."),
        .apple("9.20", .must, "APAC's profile and level are part of its codec string."),
        .apple("9.20", platform: "tvOS", .must, "The multivariant playlist lists no audio-only variant."),
        .apple(
            "9.21", platform: "iOS", .must,
            "A multivariant playlist served over cellular has a variant whose peak BANDWIDTH is at most 192 kbit/s."),
        .apple(
            "9.22", platform: "iOS", .should, "A 192 kbit/s peak H.264 variant in MPEG-TS is provided for cellular."),
        // 10. Delivery
        .apple("10.1", .must, "Playlists are delivered with gzip content encoding."),
        .apple("10.2", .should, "Failover is offered, for example with duplicate variants."),
        .apple(
            "10.3", .should, "Media does not reach the app through a local server.",
            notCheckable: "how an app receives media is outside the stream"),
        .apple(
            "10.4", .should, "Content is served with the recommended MIME types.",
            gap: "checked for playlists only; segments, keys and subtitles are not"),
        // 14. Low-latency HLS
        .apple(
            "14.1", .must,
            "Low-latency delivery meets the Low-Latency Server Configuration Profile of the HLS specification's Appendix B.",
            gap:
                "the playlist attributes, rendition report URIs and, with --live-duration, the answers to delivery directives, parts and preload hints are checked; that the server offers every feature the profile asks for is not"
        ),
        .apple(
            "14.2a", .must, "The part target duration is at least the 95th-percentile round-trip time to clients.",
            notCheckable: "the clients' round-trip times are not in the stream"),
        .apple(
            "14.2b", .should, "The part target duration is at least three times the 95th-percentile round-trip time.",
            notCheckable: "the clients' round-trip times are not in the stream"),
        .apple("14.2c", .should, "The part target duration is one second."),
        .apple("14.3", .must, "PART-HOLD-BACK is at least three part target durations."),
        .apple("14.4", .should, "A service whose playlist window exceeds two minutes offers playlist delta updates."),
        .apple("14.5", .should, "A service with delta updates and EXT-X-DATERANGE sets CAN-SKIP-DATERANGES=YES."),
    ]
}
