using System.Text.RegularExpressions;

namespace Notifications.Shared.Contract;

/// <summary>
/// An email's attachments' rules: how many, how large in all, and each one's file name and content type. Plain .NET only:
/// this file is compiled into the client package as well, so an app hears at enqueue what would not fit (the limits keep a
/// message well under the 10-25 MB most receiving servers take, with base64's third on top).
/// </summary>
internal static partial class AttachmentRules
{
    /// <summary>The most files one notification may carry.</summary>
    public const int MaxCount = 10;

    /// <summary>The most content bytes of all a notification's files together (10 MiB; base64 makes it about 13.7 MB on the wire).</summary>
    public const long MaxTotalBytes = 10 * 1024 * 1024;

    /// <summary>A file name's length limit, in characters (the column's).</summary>
    public const int MaxFileNameLength = 255;

    /// <summary>A content type's length limit, in characters (the column's).</summary>
    public const int MaxContentTypeLength = 255;

    /// <summary>Null when <paramref name="count"/> files of <paramref name="totalBytes"/> bytes in all fit; otherwise why not.</summary>
    public static string? Totals(int count, long totalBytes) =>
        count > MaxCount ? $"invalid attachments: {count} files; at most {MaxCount} fit one notification"
        : totalBytes > MaxTotalBytes ? $"invalid attachments: {totalBytes} bytes in all; at most {MaxTotalBytes} (10 MiB) fit one notification"
        : null;

    /// <summary>Null when <paramref name="name"/> can name an attached file; otherwise why not.</summary>
    public static string? FileName(string? name) =>
        string.IsNullOrWhiteSpace(name) ? "invalid attachment file name: it is empty"
        : name.Length > MaxFileNameLength ? $"invalid attachment file name: {name.Length} characters; at most {MaxFileNameLength}"
        : name.AsSpan().IndexOfAnyInRange('\0', '\u001f') >= 0 || name.Contains('\u007f')
            ? "invalid attachment file name: it contains a control character (CR, LF, ...)"
        : name.AsSpan().ContainsAny('/', '\\') ? $"invalid attachment file name: '{name}' contains a path separator; give the file's name only"
        : null;

    /// <summary>Null when <paramref name="contentType"/> is a media type (<c>type/subtype</c>, RFC 6838, no parameters); otherwise why not.</summary>
    public static string? ContentType(string? contentType) =>
        contentType is { Length: > 0 and <= MaxContentTypeLength } && MediaType().IsMatch(contentType)
            ? null
            : $"invalid attachment content type: '{contentType}' is not type/subtype (e.g. application/pdf), at most {MaxContentTypeLength} characters";

    // RFC 6838 4.2 restricted-name, for the type and the subtype.
    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$")]
    private static partial Regex MediaType();
}
