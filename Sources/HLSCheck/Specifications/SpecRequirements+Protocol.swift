// The MUSTs and SHOULDs of draft-pantos-hls-rfc8216bis-22 §4–6 that bind a playlist, its
// segments or its server, paraphrased. Sentences that bind clients ("clients MUST …", all of
// §6.3) are left out: no stream can break them. §5 (key files) holds no requirement on content.

extension SpecRequirements {
    static let protocolRequirements: [SpecRequirement] = [
        // §4 Playlists
        .bis(
            "4", .must,
            "A playlist is identifiable by its URI path (.m3u8 or .m3u) or by its Content-Type (application/vnd.apple.mpegurl or audio/mpegurl)."
        ),
        // §4.1 Definition of a Playlist
        .bis("4.1", .must, ["UTF-8"], "Playlist files are UTF-8."),
        .bis("4.1", .must, ["BOM"], "Playlist files carry no byte order mark."),
        .bis("4.1", .must, ["control"], "Playlist files contain no control characters other than CR and LF."),
        .bis("4.1", .must, ["NFC"], "Character sequences are normalized to Unicode NFC."),
        .bis("4.1", .must, ["whitespace"], "No whitespace except where an element allows it."),
        .bis("4.1", .should, "A playlist does not mix multivariant playlist tags with media playlist or segment tags."),
        // §4.2 Attribute Lists
        .bis("4.2", .must, ["whitespace"], "No whitespace around the '=' of an attribute."),
        .bis(
            "4.2", .must, ["quoted-string", "quote"],
            "A quoted-string holds no line feed, carriage return or double quote."),
        .bis("4.2", .must, ["empty"], "A quoted-string is not empty unless its attribute allows it."),
        .bis("4.2", .must, ["once"], "An attribute name appears at most once in an attribute list."),
        .bis(
            "4.2", .should, ["byte-wise"],
            "Quoted-string values are built so that byte-wise comparison tests equality.",
            notCheckable: "a property of how values are chosen, not of one playlist"),
        .bis("4.2", .should, ["repeat"], "An enumerated-string-list does not repeat a value."),
        // §4.4.1 Basic Tags
        .bis("4.4.1.1", .must, "EXTM3U is the first line of every playlist."),
        .bis(
            "4.4.1.2", .must, ["compatible"],
            "EXT-X-VERSION is present, at least at the minimum §8 gives, when the playlist uses anything beyond protocol version 1."
        ),
        .bis("4.4.1.2", .must, ["more than one"], "A playlist has at most one EXT-X-VERSION."),
        // §4.4.2 Media or Multivariant Playlist Tags
        .bis(
            "4.4.2", .must,
            "EXT-X-INDEPENDENT-SEGMENTS and EXT-X-START appear at most once in a playlist (EXT-X-DEFINE may repeat)."),
        .bis("4.4.2.1", .must, ["once"], "EXT-X-INDEPENDENT-SEGMENTS appears at most once in a playlist."),
        .bis(
            "4.4.2.1", .should,
            "EXT-X-INDEPENDENT-SEGMENTS in the multivariant playlist is not repeated in its media playlists."),
        .bis(
            "4.4.2.1", .must, ["same value"],
            "EXT-X-INDEPENDENT-SEGMENTS in both the multivariant and a media playlist has the same value.",
            notCheckable: "the tag has no value, so there is nothing that could differ"),
        .bis("4.4.2.2", .must, ["TIME-OFFSET"], "EXT-X-START has a TIME-OFFSET."),
        .bis("4.4.2.2", .should, ["duration"], "The absolute TIME-OFFSET is at most the playlist's duration."),
        .bis(
            "4.4.2.2", .should, ["three"],
            "Without EXT-X-ENDLIST, TIME-OFFSET is not within three target durations of the end."),
        .bis("4.4.2.2", .must, ["once"], "EXT-X-START appears at most once in a playlist."),
        .bis(
            "4.4.2.2", .should, ["media playlist"],
            "EXT-X-START in the multivariant playlist is not repeated in its media playlists."),
        .bis(
            "4.4.2.2", .must, ["same value"],
            "EXT-X-START in both the multivariant and a media playlist has the same value."),
        .bis(
            "4.4.2.3", .must, ["characters"],
            "Variable names in NAME, IMPORT and QUERYPARAM use only a-z, A-Z, 0-9, '-' and '_'."),
        .bis("4.4.2.3", .must, ["VALUE"], "EXT-X-DEFINE with NAME has a VALUE."),
        .bis(
            "4.4.2.3", .must, ["IMPORT", "multivariant"], "EXT-X-DEFINE with IMPORT appears only in media playlists."),
        .bis("4.4.2.3", .must, ["IMPORT"], "IMPORT names a variable the multivariant playlist defines."),
        .bis(
            "4.4.2.3", .must, ["percent"],
            "A QUERYPARAM value, percent-decoded, holds no character a quoted-string forbids."),
        .bis(
            "4.4.2.3", .must, ["QUERYPARAM"], "QUERYPARAM names a query parameter, with a value, of the playlist's URI."
        ),
        .bis("4.4.2.3", .must, ["one of"], "EXT-X-DEFINE has exactly one of NAME, IMPORT and QUERYPARAM."),
        .bis("4.4.2.3", .must, ["same"], "No two EXT-X-DEFINE tags of a playlist define the same variable."),
        // §4.4.3 Media Playlist Tags
        .bis("4.4.3", .must, ["more than one"], "A media playlist has at most one of each media playlist tag."),
        .bis("4.4.3", .must, ["multivariant"], "Media playlist tags do not appear in a multivariant playlist."),
        .bis(
            "4.4.3.1", .must, ["rounded"],
            "Each EXTINF, rounded to the nearest integer, is at most the target duration."),
        .bis("4.4.3.1", .must, ["at least 1"], "The target duration is at least 1."),
        .bis("4.4.3.1", .must, ["EXT-X-TARGETDURATION"], "A media playlist has EXT-X-TARGETDURATION."),
        .bis("4.4.3.2", .must, "EXT-X-MEDIA-SEQUENCE comes before the first segment."),
        .bis("4.4.3.3", .must, ["first"], "EXT-X-DISCONTINUITY-SEQUENCE comes before the first segment."),
        .bis(
            "4.4.3.3", .must, ["EXT-X-DISCONTINUITY tag"],
            "EXT-X-DISCONTINUITY-SEQUENCE comes before any EXT-X-DISCONTINUITY tag."),
        .bis(
            "4.4.3.6", .must, ["Initialization"],
            "A resource holding I-frame segments starts with a Media Initialization Section or has EXT-X-MAP."),
        .bis(
            "4.4.3.6", .must, ["byte range"],
            "An I-frame segment's byte range does not include the Media Initialization Section."),
        .bis("4.4.3.7", .must, ["EXT-X-PART"], "A playlist with EXT-X-PART has EXT-X-PART-INF."),
        .bis("4.4.3.7", .must, ["PART-TARGET"], "EXT-X-PART-INF has PART-TARGET."),
        .bis(
            "4.4.3.8", .must, ["CAN-SKIP-UNTIL"], "The skip boundary (CAN-SKIP-UNTIL) is at least six target durations."
        ),
        .bis("4.4.3.8", .must, ["CAN-SKIP-DATERANGES"], "CAN-SKIP-DATERANGES comes with CAN-SKIP-UNTIL."),
        .bis("4.4.3.8", .must, ["HOLD-BACK"], "HOLD-BACK is at least three target durations."),
        .bis(
            "4.4.3.8", .must, ["PART-HOLD-BACK", "twice"], "PART-HOLD-BACK is at least twice the part target duration."),
        .bis("4.4.3.8", .should, ["PART-HOLD-BACK"], "PART-HOLD-BACK is at least three part target durations."),
        .bis(
            "4.4.3.8", .should, ["PART-HOLD-BACK", "maximum"],
            "With different part targets across renditions, PART-HOLD-BACK is at least three times the largest."),
        .bis(
            "4.4.3.8", .must, ["PART-HOLD-BACK", "EXT-X-PART-INF"], "A playlist with EXT-X-PART-INF has PART-HOLD-BACK."
        ),
        // §4.4.4 Media Segment Tags
        .bis("4.4.4", .must, "Media segment tags do not appear in a multivariant playlist."),
        .bis("4.4.4.1", .must, ["REQUIRED"], "Every segment has an EXTINF."),
        .bis(
            "4.4.4.1", .should, ["accura"],
            "Durations are decimal floating point, accurate enough that their sum shows no perceptible error."),
        .bis("4.4.4.1", .must, ["integer"], "Below version 3, durations are integers."),
        .bis(
            "4.4.4.1", .should, ["rounded"],
            "Integer durations are the measured duration rounded to the nearest integer."),
        .bis(
            "4.4.4.2", .must,
            "A byte range without an offset follows a segment that is a sub-range of the same resource."),
        .bis(
            "4.4.4.3", .must,
            "EXT-X-DISCONTINUITY marks every change of file format, of the number, type or ids of tracks, or of the timestamp sequence.",
            gap: "audio and video tracks are compared; timed metadata streams (a timed-ID3 PID) are not"),
        .bis("4.4.4.3", .should, "EXT-X-DISCONTINUITY marks a change of encoding parameters or encoding sequence."),
        .bis("4.4.4.4", .must, ["METHOD", "REQUIRED"], "EXT-X-KEY has METHOD."),
        .bis("4.4.4.4", .must, ["NONE"], "EXT-X-KEY with METHOD=NONE has no other attribute."),
        .bis("4.4.4.4", .must, ["AES-256-GCM"], "EXT-X-KEY with METHOD=AES-256-GCM has no IV."),
        .bis("4.4.4.4", .must, ["SAMPLE-AES-CTR"], "EXT-X-KEY with METHOD=SAMPLE-AES-CTR has no IV."),
        .bis("4.4.4.4", .must, ["URI"], "EXT-X-KEY has a URI unless METHOD is NONE."),
        .bis("4.4.4.5", .must, ["URI"], "EXT-X-MAP has a URI."),
        .bis("4.4.4.5", .should, ["only"], "An EXT-X-MAP byte range holds only the Media Initialization Section."),
        .bis("4.4.4.5", .must, ["offset"], "An EXT-X-MAP BYTERANGE gives its offset."),
        .bis(
            "4.4.4.5", .should, ["EXT-X-I-FRAMES-ONLY"],
            "An I-frame playlist has EXT-X-MAP when its first I-frame does not directly follow the initialization section."
        ),
        .bis("4.4.4.5", .must, ["IV"], "The EXT-X-KEY that applies to an AES-128-encrypted EXT-X-MAP has an IV."),
        .bis("4.4.4.6", .should, "EXT-X-PROGRAM-DATE-TIME gives a time zone and at least milliseconds."),
        .bis("4.4.4.8", .must, "EXT-X-BITRATE is within 90–110 % of the bit rate of each segment it applies to."),
        .bis("4.4.4.9", .must, ["URI"], "EXT-X-PART has a URI."),
        .bis("4.4.4.9", .must, ["DURATION"], "EXT-X-PART has a DURATION."),
        .bis(
            "4.4.4.9", .should, ["INDEPENDENT"], "A partial segment holding an independent frame says INDEPENDENT=YES.",
            gap: "needs the media of each part"),
        .bis("4.4.4.9", .must, ["GAP"], "An unavailable partial segment says GAP=YES."),
        .bis(
            "4.4.4.9", .must, ["before"],
            "EXT-X-DISCONTINUITY, EXT-X-KEY, EXT-X-MAP and EXT-X-PROGRAM-DATE-TIME of a segment come before its first EXT-X-PART."
        ),
        .bis("4.4.4.9", .must, ["at most"], "A partial segment lasts at most the part target duration."),
        .bis(
            "4.4.4.9", .must, ["85"],
            "A partial segment lasts at least 85 % of the part target duration, except INDEPENDENT or GAP parts, parts before a gap, and a segment's last part."
        ),
        .bis("4.4.4.9", .should, ["EXT-X-I-FRAMES-ONLY"], "An I-frame playlist has no partial segments."),
        // §4.4.5 Media Metadata Tags
        .bis("4.4.5", .must, "EXT-X-SKIP appears at most once."),
        .bis("4.4.5.1", .must, ["ID"], "EXT-X-DATERANGE has an ID."),
        .bis(
            "4.4.5.1", .must, ["CLASS", "semantics"], "Date ranges of one CLASS follow that class's semantics.",
            notCheckable: "a class's semantics are defined outside the specification"),
        .bis(
            "4.4.5.1", .must, ["START-DATE"],
            "EXT-X-DATERANGE has START-DATE unless an earlier tag with its ID has one."),
        .bis("4.4.5.1", .must, ["END-DATE", "START-DATE"], "END-DATE is not before START-DATE."),
        .bis("4.4.5.1", .must, ["DURATION"], "DURATION is not negative."),
        .bis("4.4.5.1", .should, ["0"], "An instant is a date range with DURATION 0.", notCheckable: intent),
        .bis("4.4.5.1", .must, ["PLANNED-DURATION"], "PLANNED-DURATION is not negative."),
        .bis(
            "4.4.5.1", .should, ["PLANNED-DURATION"],
            "PLANNED-DURATION gives the expected duration of a range whose duration is not yet known.",
            notCheckable: "whether the duration is known is the server's knowledge"),
        .bis("4.4.5.1", .must, ["X-", "AttributeName"], "An X- attribute name is a legal attribute name."),
        .bis(
            "4.4.5.1", .should, ["reverse-DNS"], "X- attribute names use reverse-DNS naming.",
            notCheckable: "a naming convention"),
        .bis(
            "4.4.5.1", .must, ["X-", "hexadecimal"],
            "An X- attribute value is a quoted-string, a hexadecimal-sequence or a signed decimal floating point."),
        .bis(
            "4.4.5.1", .should, ["consistent"], "X- attributes mean the same across classes.",
            notCheckable: "a class's semantics are defined outside the specification"),
        .bis("4.4.5.1", .must, ["END-ON-NEXT", "YES"], "END-ON-NEXT is YES."),
        .bis("4.4.5.1", .must, ["PRE", "POST"], "CUE does not hold both PRE and POST."),
        .bis("4.4.5.1", .must, ["END-ON-NEXT", "CLASS"], "A range with END-ON-NEXT=YES has a CLASS."),
        .bis("4.4.5.1", .must, ["overlap"], "Ranges of the same CLASS as an END-ON-NEXT range do not overlap."),
        .bis(
            "4.4.5.1", .must, ["END-ON-NEXT", "DURATION"],
            "A range with END-ON-NEXT=YES has neither DURATION nor END-DATE."),
        .bis("4.4.5.1", .should, ["time zone"], "Date attributes give a time zone and at least milliseconds."),
        .bis(
            "4.4.5.1", .must, ["EXT-X-PROGRAM-DATE-TIME"],
            "A playlist with EXT-X-DATERANGE has at least one EXT-X-PROGRAM-DATE-TIME."),
        .bis("4.4.5.1", .must, ["every"], "Every EXT-X-DATERANGE has ID, even one that adds to an earlier range."),
        .bis("4.4.5.1", .must, ["same ID"], "Tags with the same ID give any attribute they share the same value."),
        .bis(
            "4.4.5.1", .must, ["END-DATE", "DURATION"],
            "With both DURATION and END-DATE, END-DATE is START-DATE plus DURATION."),
        .bis(
            "4.4.5.1.1", .must,
            "SCTE-35 commands map onto SCTE35-CMD, -OUT and -IN, START-DATE, DURATION and END-DATE as the section prescribes, with IDs unique per splice.",
            notCheckable: "needs the source's SCTE-35 messages"),
        .bis(
            "4.4.5.1.1", .should,
            "Each kind of SCTE-35 command and segmentation gets its own EXT-X-DATERANGE, added no later than the last pre-splice segment.",
            notCheckable: "needs the source's SCTE-35 messages"),
        .bis("4.4.5.2", .must, ["once"], "EXT-X-SKIP appears at most once in a playlist."),
        .bis("4.4.5.2", .must, ["SKIPPED-SEGMENTS"], "EXT-X-SKIP has SKIPPED-SEGMENTS."),
        .bis(
            "4.4.5.2", .must, ["RECENTLY-REMOVED-DATERANGES"],
            "A delta update that skips date ranges has RECENTLY-REMOVED-DATERANGES."),
        .bis("4.4.5.3", .must, ["TYPE"], "EXT-X-PRELOAD-HINT has TYPE."),
        .bis(
            "4.4.5.3", .must, ["match"],
            "A preload hint's URI is the one later added to the playlist for that resource."),
        .bis("4.4.5.3", .must, ["URI", "REQUIRED"], "EXT-X-PRELOAD-HINT has a URI."),
        .bis("4.4.5.3", .must, ["EXT-X-ENDLIST"], "A playlist with EXT-X-ENDLIST has no EXT-X-PRELOAD-HINT."),
        .bis("4.4.5.4", .must, ["relative"], "EXT-X-RENDITION-REPORT's URI is relative to the playlist holding it."),
        .bis(
            "4.4.5.4", .must, ["LAST-MSN"],
            "EXT-X-RENDITION-REPORT has URI, LAST-MSN and, for a rendition with parts, LAST-PART, unless a value equals that of the playlist's own report.",
            gap:
                "an omitted LAST-MSN or LAST-PART is compared with the reported rendition's playlist only where the check reads it, and over HTTP, where the two playlists are read moments apart, a rendition up to one segment (or any number of parts) ahead passes"
        ),
        // §4.4.6 Multivariant Playlist Tags
        .bis("4.4.6", .must, "Multivariant playlist tags do not appear in a media playlist."),
        .bis("4.4.6.1", .must, ["TYPE"], "EXT-X-MEDIA has TYPE."),
        .bis("4.4.6.1", .must, ["URI", "CLOSED-CAPTIONS"], "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS has no URI."),
        .bis("4.4.6.1", .must, ["GROUP-ID"], "EXT-X-MEDIA has GROUP-ID."),
        .bis(
            "4.4.6.1", .should, ["NAME", "LANGUAGE"], "NAME is written in the language LANGUAGE gives.",
            notCheckable: "needs understanding the text"),
        .bis("4.4.6.1", .must, ["NAME"], "EXT-X-MEDIA has NAME."),
        .bis(
            "4.4.6.1", .must, ["STABLE-RENDITION-ID"],
            "STABLE-RENDITION-ID uses only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'."),
        .bis(
            "4.4.6.1", .should, ["STABLE-RENDITION-ID"],
            "EXT-X-MEDIA tags with the same URI use the same STABLE-RENDITION-ID."),
        .bis("4.4.6.1", .must, ["AUTOSELECT"], "AUTOSELECT is YES when DEFAULT is YES."),
        .bis("4.4.6.1", .must, ["FORCED"], "FORCED appears only with TYPE=SUBTITLES."),
        .bis("4.4.6.1", .must, ["INSTREAM-ID"], "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS has INSTREAM-ID."),
        .bis(
            "4.4.6.1", .must, ["INSTREAM-ID", "CC1"], "A closed-caption INSTREAM-ID is CC1–CC4 or SERVICE1–SERVICE63."),
        .bis("4.4.6.1", .must, ["BIT-DEPTH"], "BIT-DEPTH appears only with TYPE=AUDIO."),
        .bis("4.4.6.1", .must, ["SAMPLE-RATE"], "SAMPLE-RATE appears only with TYPE=AUDIO."),
        .bis("4.4.6.1", .must, ["CHANNELS", "AUDIO"], "CHANNELS appears only with TYPE=AUDIO."),
        .bis(
            "4.4.6.1", .must, ["CHANNELS", "second"],
            "A CHANNELS value with a third parameter has a non-empty second one."),
        .bis("4.4.6.1", .should, ["CHANNELS"], "Every audio EXT-X-MEDIA has CHANNELS."),
        .bis(
            "4.4.6.1", .must, ["CHANNELS", "NAME"],
            "Renditions with the same NAME and codec but different channel counts have CHANNELS."),
        .bis(
            "4.4.6.1.1", .must, ["same content"],
            "The members of a group are alternative renditions of the same content.",
            notCheckable: "whether two recordings are the same content"),
        .bis("4.4.6.1.1", .must, ["NAME"], "Members of a group have different NAMEs."),
        .bis("4.4.6.1.1", .must, ["DEFAULT"], "A group has at most one member with DEFAULT=YES."),
        .bis(
            "4.4.6.1.1", .should,
            "AUTOSELECT=YES members of a group differ in LANGUAGE, ASSOC-LANGUAGE, FORCED or CHARACTERISTICS."),
        .bis(
            "4.4.6.1.1", .must, ["same set"],
            "Groups of the same TYPE have the same members with the same attributes, except URI, CHANNELS, BIT-DEPTH, STABLE-RENDITION-ID, INSTREAM-ID and SAMPLE-RATE."
        ),
        .bis(
            "4.4.6.1.1", .must, ["CODECS"],
            "A variant that references a group lists in CODECS every sample format of the group's renditions."),
        .bis("4.4.6.2", .must, ["URI"], "EXT-X-STREAM-INF is followed by a URI line."),
        .bis(
            "4.4.6.2", .must, ["BANDWIDTH", "largest"],
            "When every segment exists, BANDWIDTH is the largest sum of peak segment bit rates of any playable combination of renditions.",
            gap: "the peak window is RFC 8216's 1.5 × TD, not bis-22's 0.5–1.5 × TD + 0.5 s"),
        .bis(
            "4.4.6.2", .should, ["BANDWIDTH", "representative"],
            "Before all segments exist, BANDWIDTH is that of a representative period encoded the same way.",
            notCheckable: "the representative period is the author's choice"),
        .bis("4.4.6.2", .must, ["BANDWIDTH", "include"], "Every EXT-X-STREAM-INF has BANDWIDTH."),
        .bis(
            "4.4.6.2", .must, ["AVERAGE-BANDWIDTH", "largest"],
            "When every segment exists, AVERAGE-BANDWIDTH is the largest sum of average segment bit rates of any playable combination."
        ),
        .bis(
            "4.4.6.2", .should, ["AVERAGE-BANDWIDTH", "representative"],
            "Before all segments exist, AVERAGE-BANDWIDTH is that of a representative period.",
            notCheckable: "the representative period is the author's choice"),
        .bis(
            "4.4.6.2", .should, ["SCORE", "all media"], "SCORE accounts for all the media of the variant.",
            notCheckable: "SCORE is an abstract measure of the author's"),
        .bis(
            "4.4.6.2", .must, ["SCORE", "desirable"], "A higher SCORE marks a variant its author finds more desirable.",
            notCheckable: intent),
        .bis("4.4.6.2", .should, ["SCORE"], "If any variant has SCORE, all have."),
        .bis(
            "4.4.6.2", .must, ["IMSC"],
            "CODECS of a variant with IMSC subtitle renditions names them (such as stpp.ttml.im1t)."),
        .bis("4.4.6.2", .should, ["CODECS"], "Every EXT-X-STREAM-INF has CODECS."),
        .bis(
            "4.4.6.2", .must, ["SUPPLEMENTAL-CODECS", "first"],
            "The first field of each SUPPLEMENTAL-CODECS element is a valid CODECS format."),
        .bis(
            "4.4.6.2", .must, ["SUPPLEMENTAL-CODECS", "brands"],
            "Further fields of a SUPPLEMENTAL-CODECS element are compatibility brands of that codec's bitstream.",
            gap:
                "a field is checked for the four-character form of a brand; whether the codec's specification defines that brand is not"
        ),
        .bis(
            "4.4.6.2", .must, ["SUPPLEMENTAL-CODECS", "base layer"],
            "Each SUPPLEMENTAL-CODECS element has its base layer codec in CODECS."),
        .bis(
            "4.4.6.2", .should, ["FRAME-RATE"],
            "FRAME-RATE is present when any video of the variant exceeds 30 frames per second."),
        .bis(
            "4.4.6.2", .should, ["HDCP-LEVEL", "keys"],
            "Encrypted variants with different HDCP levels use different keys."),
        .bis(
            "4.4.6.2", .should, ["HDCP-LEVEL"], "HDCP-LEVEL is present when content fails to play without HDCP.",
            notCheckable: "depends on the licence terms of the content"),
        .bis(
            "4.4.6.2", .should, ["CPC"],
            "A KEYFORMAT that defines CPC labels states its robustness requirements in each key response.",
            notCheckable: "needs the DRM's key responses"),
        .bis(
            "4.4.6.2", .must, ["VIDEO-RANGE", "SDR"],
            "VIDEO-RANGE is SDR for video with transfer characteristics 1, 6, 13, 14 or 15."),
        .bis(
            "4.4.6.2", .must, ["VIDEO-RANGE", "HLG"],
            "VIDEO-RANGE is HLG for video with transfer characteristics 18 (possibly mixed with SDR)."),
        .bis(
            "4.4.6.2", .must, ["VIDEO-RANGE", "PQ"],
            "VIDEO-RANGE is PQ for video with transfer characteristics 16 (possibly mixed with SDR or HLG)."),
        .bis(
            "4.4.6.2", .must, ["REQ-VIDEO-LAYOUT", "empty"], "REQ-VIDEO-LAYOUT and each of its entries are not empty."),
        .bis(
            "4.4.6.2", .should, ["REQ-VIDEO-LAYOUT", "specialized"],
            "REQ-VIDEO-LAYOUT is present when video needs specialized rendering.",
            gap: "needs the video's stereo and projection metadata"),
        .bis(
            "4.4.6.2", .should, ["REQ-VIDEO-LAYOUT", "order"],
            "REQ-VIDEO-LAYOUT lists the most common presentation first.",
            notCheckable: "needs judging the content as a whole"),
        .bis(
            "4.4.6.2", .should, ["REQ-VIDEO-LAYOUT", "CH-MONO"],
            "REQ-VIDEO-LAYOUT is left out when it would only say monoscopic and rectilinear."),
        .bis(
            "4.4.6.2", .must, ["STABLE-VARIANT-ID"],
            "STABLE-VARIANT-ID uses only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'."),
        .bis(
            "4.4.6.2", .should, ["STABLE-VARIANT-ID", "same URI"],
            "EXT-X-STREAM-INF tags with the same URI use the same STABLE-VARIANT-ID."),
        .bis("4.4.6.2", .must, ["AUDIO"], "AUDIO names the GROUP-ID of an EXT-X-MEDIA of TYPE=AUDIO."),
        .bis("4.4.6.2", .must, ["VIDEO"], "VIDEO names the GROUP-ID of an EXT-X-MEDIA of TYPE=VIDEO."),
        .bis("4.4.6.2", .must, ["SUBTITLES"], "SUBTITLES names the GROUP-ID of an EXT-X-MEDIA of TYPE=SUBTITLES."),
        .bis(
            "4.4.6.2", .must, ["CLOSED-CAPTIONS"],
            "A quoted CLOSED-CAPTIONS names the GROUP-ID of an EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS."),
        .bis(
            "4.4.6.2", .must, ["CLOSED-CAPTIONS", "NONE"],
            "If one variant says CLOSED-CAPTIONS=NONE, every variant does."),
        .bis("4.4.6.2", .should, ["PATHWAY-ID", "all"], "Every rendition group is provided on every pathway."),
        .bis(
            "4.4.6.2", .should, ["PATHWAY-ID", "its"],
            "A variant of a pathway uses the rendition groups of that pathway."),
        .bis(
            "4.4.6.2.1", .must, ["BANDWIDTH"],
            "Every playable combination of a variant's renditions has an aggregate bandwidth of at most BANDWIDTH."),
        .bis(
            "4.4.6.2.1", .must, ["RESOLUTION"],
            "With RESOLUTION and VIDEO, every video rendition of the group has that optimal resolution."),
        .bis(
            "4.4.6.2.1", .must, ["6.2.4"],
            "Every alternative rendition meets the §6.2.4 constraints on variant streams.",
            gap: "as far as the §6.2.4 entries are checked"),
        .bis("4.4.6.2.1", .must, ["SUBTITLES"], "EXT-X-MEDIA of TYPE=SUBTITLES has a URI."),
        .bis("4.4.6.2.1", .must, ["CLOSED-CAPTIONS"], "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS has no URI."),
        .bis(
            "4.4.6.3", .must, ["EXT-X-I-FRAMES-ONLY"],
            "The playlist an EXT-X-I-FRAME-STREAM-INF names carries EXT-X-I-FRAMES-ONLY."),
        .bis("4.4.6.3", .must, ["BANDWIDTH"], "EXT-X-I-FRAME-STREAM-INF has BANDWIDTH and URI."),
        .bis(
            "4.4.6.3", .should,
            "With alternative VIDEO renditions and I-frame playlists, each VIDEO rendition has an I-frame rendition with the same NAME and LANGUAGE."
        ),
        .bis("4.4.6.4", .must, ["DATA-ID"], "EXT-X-SESSION-DATA has DATA-ID."),
        .bis(
            "4.4.6.4", .should, ["reverse DNS"], "DATA-ID follows reverse-DNS naming and is unlikely to collide.",
            notCheckable: "a naming convention"),
        .bis(
            "4.4.6.4", .should, ["LANGUAGE"], "With LANGUAGE, VALUE is written in that language.",
            notCheckable: "needs understanding the text"),
        .bis(
            "4.4.6.4", .must, ["FORMAT"],
            "The resource at a session-data URI has the FORMAT declared (JSON by default)."),
        .bis("4.4.6.4", .must, ["VALUE"], "EXT-X-SESSION-DATA has either VALUE or URI, not both."),
        .bis("4.4.6.4", .must, ["same DATA-ID"], "No two EXT-X-SESSION-DATA tags share DATA-ID and LANGUAGE."),
        .bis("4.4.6.5", .must, ["NONE"], "EXT-X-SESSION-KEY's METHOD is not NONE."),
        .bis(
            "4.4.6.5", .must, ["match"],
            "EXT-X-SESSION-KEY's METHOD, KEYFORMAT and KEYFORMATVERSIONS match every EXT-X-KEY with its URI."),
        .bis(
            "4.4.6.5", .should, "Keys that several variants or renditions share are announced with EXT-X-SESSION-KEY."),
        .bis(
            "4.4.6.5", .must, ["IV"],
            "No two EXT-X-SESSION-KEY tags share METHOD, URI, IV, KEYFORMAT and KEYFORMATVERSIONS."),
        .bis("4.4.6.6", .must, ["once"], "EXT-X-CONTENT-STEERING appears at most once."),
        .bis("4.4.6.6", .must, ["SERVER-URI"], "EXT-X-CONTENT-STEERING has SERVER-URI."),
        .bis(
            "4.4.6.6", .must, ["PATHWAY-ID"],
            "Its PATHWAY-ID is a legal pathway id that some variant's PATHWAY-ID names."),
        // §6.2.1 General Server Responsibilities
        .bis("6.2.1", .must, ["divide"], "Segments last, rounded to whole seconds, at most the target duration."),
        .bis(
            "6.2.1", .should, ["key frame"], "Segments are cut where they decode on their own, such as on key frames."),
        .bis("6.2.1", .must, ["URI"], "Every segment has a URI from which it can be fetched."),
        .bis(
            "6.2.1", .should, ["absence"], "Missing media is signalled with gap segments of the missing duration.",
            notCheckable: "whether media is missing from the source is the server's knowledge"),
        .bis("6.2.1", .must, ["EXT-X-GAP"], "Gap segments carry EXT-X-GAP, and gap parts GAP=YES."),
        .bis(
            "6.2.1", .must, ["encoding parameters"],
            "Changes of codec, resolution, format, tracks or timing are marked with EXT-X-DISCONTINUITY."),
        .bis(
            "6.2.1", .must, ["immediate"],
            "A segment not marked EXT-X-GAP can be fetched at full speed as soon as it is in the playlist.",
            gap: "availability is checked; transfer speed is not"),
        .bis(
            "6.2.1", .should, ["constrained"], "A segment's transfer is not paced by its production.", gap: needsTiming),
        .bis("6.2.1", .must, ["Partial"], "A partial segment can be fetched as soon as it is in the playlist."),
        .bis(
            "6.2.1", .should, ["gzip"], "Playlists and WebVTT are served gzip-encoded to clients that accept it.",
            gap: "playlists are checked; WebVTT segments are not"),
        .bis(
            "6.2.1", .must, ["order"], "The media playlist lists every segment the server offers, in playing order.",
            notCheckable: "needs the server's intent"),
        .bis("6.2.1", .should, ["EXT-X-VERSION"], "EXT-X-VERSION is no higher than the playlist's features need."),
        .bis(
            "6.2.1", .must, ["atomically"], "Playlist updates are atomic for clients.",
            notCheckable: "a torn update cannot be told from a broken playlist"),
        .bis(
            "6.2.1", .must, ["appending"],
            "A media playlist only changes by appending, removing segments from the front in order, removing stale metadata or parts, incrementing the sequence numbers, or adding EXT-X-ENDLIST."
        ),
        .bis("6.2.1", .must, ["VOD"], "A playlist with EXT-X-PLAYLIST-TYPE:VOD never changes."),
        .bis(
            "6.2.1", .must, ["EVENT"],
            "A playlist with EXT-X-PLAYLIST-TYPE:EVENT only grows (apart from parts and metadata)."),
        .bis("6.2.1", .must, ["EXT-X-TARGETDURATION"], "EXT-X-TARGETDURATION never changes."),
        .bis(
            "6.2.1", .should, ["EXT-X-DISCONTINUITY"],
            "With a date-time mapping, every segment with EXT-X-DISCONTINUITY has EXT-X-PROGRAM-DATE-TIME."),
        .bis(
            "6.2.1", .must, ["ambiguous"],
            "No EXT-X-PROGRAM-DATE-TIME makes the date-to-segment mapping ambiguous (sub-second overlaps excepted)."),
        .bis(
            "6.2.1", .must, ["partially"], "Where dates overlap, the later segment overlaps the earlier only in part."),
        .bis(
            "6.2.1", .must, ["EXT-X-DATERANGE", "remove"],
            "An EXT-X-DATERANGE stays while any of its dates maps to a segment of the playlist."),
        .bis("6.2.1", .must, ["reuse"], "A date range ID is not reused for a new range."),
        .bis(
            "6.2.1", .must, ["Following Range"],
            "No range of the same CLASS is added between an END-ON-NEXT range and its following range."),
        .bis(
            "6.2.1", .should, ["PLANNED-DURATION"],
            "The actual end of a range with PLANNED-DURATION is signalled once known.",
            notCheckable: "when the end is known is the server's knowledge"),
        .bis(
            "6.2.1", .must, ["EXT-X-ENDLIST"], "A playlist holding the presentation's last segment has EXT-X-ENDLIST.",
            notCheckable: "which segment is the last is the server's knowledge"),
        .bis(
            "6.2.1", .must, ["1.5"],
            "Without EXT-X-ENDLIST, a version with a new segment appears within 1.5 target durations of the previous one."
        ),
        .bis(
            "6.2.1", .must, ["Part Target"],
            "Without EXT-X-ENDLIST, a playlist with parts gets a new part within one part target duration."),
        .bis(
            "6.2.1", .should, ["404"], "A removed presentation answers 404 or 410.",
            notCheckable: "needs watching the presentation's removal"),
        .bis(
            "6.2.1", .must, ["available"],
            "After a presentation is removed, its segments stay available for the playlist's duration.",
            notCheckable: "needs watching the presentation's removal"),
        // §6.2.2 Live Playlists
        .bis(
            "6.2.2", .must, ["EXT-X-MEDIA-SEQUENCE"],
            "A playlist from which segments are removed has EXT-X-MEDIA-SEQUENCE."),
        .bis(
            "6.2.2", .must, ["incremented"],
            "EXT-X-MEDIA-SEQUENCE grows by one per removed segment and never decreases or wraps."),
        .bis("6.2.2", .should, ["EXT-X-PART"], "Parts more than three target durations from the end are removed."),
        .bis("6.2.2", .must, ["Partial Segment"], "A removed part stays downloadable for three target durations."),
        .bis("6.2.2", .must, ["order"], "Segments and parts are removed in playlist order."),
        .bis(
            "6.2.2", .must, ["three"],
            "Removing a segment never leaves a live playlist shorter than three target durations."),
        .bis("6.2.2", .must, ["Availability"], "A removed segment stays downloadable for its availability duration."),
        .bis(
            "6.2.2", .must, ["EXT-X-DISCONTINUITY-SEQUENCE"],
            "A playlist with EXT-X-DISCONTINUITY from which segments are removed has EXT-X-DISCONTINUITY-SEQUENCE."),
        .bis(
            "6.2.2", .must, ["increment"],
            "EXT-X-DISCONTINUITY-SEQUENCE grows by the discontinuities removed and never decreases or wraps."),
        .bis(
            "6.2.2", .should, ["Expires"], "Segments that will be removed are served with an Expires header.",
            gap: needsHeaders),
        .bis("6.2.2", .must, ["EXT-X-PLAYLIST-TYPE"], "A live playlist has no EXT-X-PLAYLIST-TYPE."),
        // §6.2.3 Encrypting Media Segments
        .bis(
            "6.2.3", .must, ["EXT-X-KEY"], "Every encrypted segment has an EXT-X-KEY with a URI to its key.",
            gap:
                "whole-segment (AES-128) ciphertext without a key is recognised; sample encryption (SAMPLE-AES, cbcs) without a key is not, as its container stays clear"
        ),
        .bis(
            "6.2.3", .must, ["NONE"], "Every unencrypted segment is under METHOD=NONE or before the first EXT-X-KEY.",
            gap:
                "a clear segment under an AES-128 key is recognised; under SAMPLE-AES, whose container stays clear either way, whether the samples are encrypted is not judged"
        ),
        .bis(
            "6.2.3", .must, ["SHALL"],
            "AES-128 and AES-256-GCM apply to each segment on its own outside I-frame playlists.",
            notCheckable: "covered by decrypting each segment on its own; no separate observation"),
        .bis(
            "6.2.3", .must, ["I-FRAMES-ONLY"],
            "In an I-frame playlist, AES-128 encrypts the whole resource in CBC with the sequence number or IV as IV."),
        .bis("6.2.3", .must, ["remove"], "An EXT-X-KEY stays while it applies to a segment of the playlist."),
        // §6.2.4 Providing Variant Streams and Renditions
        .bis(
            "6.2.4", .should, ["multivariant"],
            "Several encodings of one presentation come with a multivariant playlist.",
            notCheckable: "needs knowing playlists the multivariant playlist does not name"),
        .bis(
            "6.2.4", .must, ["CODECS"],
            "CODECS lists every media format in any segment of any rendition of the variant."),
        .bis(
            "6.2.4", .must, ["same content"], "Every variant presents the same content.",
            notCheckable: "needs comparing what the pictures and sound show"),
        .bis(
            "6.2.4", .must, ["timestamps"], "Matching content has matching timestamps in every variant and rendition.",
            gap:
                "compared at the start of VOD playlists and, in live streams, at the first date every playlist has (EXT-X-PROGRAM-DATE-TIME); undated live playlists, subtitle and I-frame playlists are not"
        ),
        .bis(
            "6.2.4", .must, ["Discontinuity Sequence"], "Matching content has matching discontinuity sequence numbers.",
            gap:
                "compared in finished streams (EXT-X-ENDLIST), by EXTINF position within the smaller target duration; live windows are not"
        ),
        .bis(
            "6.2.4", .must, ["same target duration"],
            "Every media playlist has the same target duration, except SUBTITLES and I-frame playlists of VOD streams."),
        .bis(
            "6.2.4", .must, ["beginning"],
            "Content in one variant but not another is at the start or end and no longer than the smallest target duration.",
            gap:
                "finished playlists' lengths (EXTINF sums) are compared, so content missing in the middle is not seen; subtitle and I-frame playlists are not compared"
        ),
        .bis(
            "6.2.4", .must, ["EXT-X-PLAYLIST-TYPE"],
            "If any media playlist has EXT-X-PLAYLIST-TYPE, all have it with the same value."),
        .bis(
            "6.2.4", .must, ["first segment"],
            "In a VOD stream the first segment of every media playlist starts at the same media timestamp.",
            gap: "subtitle and I-frame playlists are not measured"),
        .bis(
            "6.2.4", .must, ["EXT-X-PROGRAM-DATE-TIME"],
            "If any media playlist has EXT-X-PROGRAM-DATE-TIME, all have it, mapping dates to the same timestamps.",
            gap:
                "dates are compared with media timestamps at the first date all live playlists share; in VOD streams only their presence is checked"
        ),
        .bis(
            "6.2.4", .must, ["Date Ranges"],
            "Date ranges appear in every playable combination, identical where they appear.",
            gap:
                "presence in every combination is checked in finished streams (EXT-X-ENDLIST) only: live windows may differ"
        ),
        .bis(
            "6.2.4", .must, ["EXT-X-SERVER-CONTROL"],
            "If any media playlist has EXT-X-SERVER-CONTROL, all have the same one."),
        .bis("6.2.4", .should, ["audio"], "Variants carry the same encoded audio bitstream."),
        // §6.2.5 Delivery Directives Interface
        .bis(
            "6.2.5.1", .must, ["_HLS_skip", "respond"],
            "A live playlist with CAN-SKIP-UNTIL answers _HLS_skip=YES or v2 with a delta update."),
        .bis(
            "6.2.5.1", .must, ["v2"], "A v2 delta update leaves out date ranges added more than the skip boundary ago.",
            gap: "needs knowing when each date range was added"),
        .bis(
            "6.2.5.1", .must, ["RECENTLY-REMOVED-DATERANGES"],
            "RECENTLY-REMOVED-DATERANGES lists the ranges removed within the skip boundary."),
        .bis("6.2.5.1", .must, ["not skipped"], "A delta update keeps every tag it does not skip."),
        .bis("6.2.5.1", .must, ["ignore"], "_HLS_skip is ignored without CAN-SKIP-UNTIL or with EXT-X-ENDLIST."),
        .bis(
            "6.2.5.2", .must, ["_HLS_msn"],
            "A request with _HLS_msn is answered once the playlist holds that media sequence number."),
        .bis(
            "6.2.5.2", .must, ["_HLS_part"],
            "A request with _HLS_msn and _HLS_part is answered once the playlist holds that part."),
        .bis(
            "6.2.5.2", .must, ["Part Index"],
            "A part index beyond a segment's last part means part 0 of the next segment."),
        .bis("6.2.5.2", .must, ["entire"], "A blocking reload returns the whole playlist."),
        .bis(
            "6.2.5.2", .must, ["EXT-X-ENDLIST"],
            "_HLS_msn and _HLS_part are ignored when the playlist has EXT-X-ENDLIST."),
        .bis(
            "6.2.5.2", .should, ["400"],
            "A request too far ahead (beyond the last sequence number plus two, or the advance part limit) is answered 400 at once.",
            gap: needsDirectives),
        .bis("6.2.5.2", .must, ["400"], "_HLS_part without _HLS_msn is answered 400."),
        .bis(
            "6.2.5.2", .should, ["503"], "A reload blocked longer than three target durations is answered 503.",
            gap: needsDirectives),
        .bis(
            "6.2.5.2", .should, ["EXT-X-I-FRAMES-ONLY"],
            "I-frame playlists support blocking reload when other renditions do.", gap: needsDirectives),
        // §6.2.6 Providing Preload Hints
        .bis(
            "6.2.6", .must, ["available"], "A hinted resource can be requested as soon as its hint is in the playlist."),
        .bis(
            "6.2.6", .must, ["full speed"], "No byte of a part is sent until the whole part can be sent at full speed.",
            gap: needsTiming),
        .bis(
            "6.2.6", .must, ["each"], "A range covering several parts keeps that guarantee for each part in turn.",
            gap: needsTiming),
        .bis(
            "6.2.6", .should, ["near term"], "Only byte ranges clients will soon need are hinted.",
            notCheckable: "depends on what clients will need"),
        .bis(
            "6.2.6", .should, ["Not Found", "cannot find"],
            "A request for an unknown resource that no hint names is answered 404."),
        .bis(
            "6.2.6", .should, ["Not Found", "hinted"], "A hinted resource that will not be published is answered 404.",
            notCheckable: "which hinted resources are abandoned is the server's knowledge"),
        .bis(
            "6.2.6", .should, ["BYTERANGE-LENGTH"], "A hint for a part of unknown length leaves out BYTERANGE-LENGTH.",
            notCheckable: "whether the length was known is the server's knowledge"),
        .bis(
            "6.2.6", .should, ["offset"], "A hint's byte offset is where the part starts in the larger resource.",
            gap: "needs comparing hints with the parts that replace them"),
        .bis("6.2.6", .should, ["TYPE"], "A playlist has at most one EXT-X-PRELOAD-HINT of each TYPE."),
    ]
}
