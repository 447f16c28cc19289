namespace Notifications.Consumer.Sending.Mime;

/// <summary>How the body travels (RFC 2045 section 6).</summary>
internal enum ContentTransferEncoding
{
    /// <summary>ASCII text, lines of at most 998 bytes: sent as is, to any server.</summary>
    SevenBit,

    /// <summary>UTF-8 text, lines of at most 998 bytes, to a server that offered 8BITMIME.</summary>
    EightBit,

    /// <summary>Anything else: long lines, NUL, or non-ASCII to a 7-bit server.</summary>
    QuotedPrintable,
}
