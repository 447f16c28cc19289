using System.Text;
using MimeKit;

namespace Notifications.Bounces.Reports;

/// <summary>
/// Whether a report was cut off on the way: MimeKit reads a multipart without its closing delimiter (<c>--boundary--</c>,
/// RFC 2046 §5.1.1) as far as it goes, so a cut DSN would look like one whose last part is short; the delimiter's absence
/// from the bytes tells them apart.
/// </summary>
internal static class MimeTruncation
{
    public static bool IsTruncated(Multipart multipart, byte[] bytes)
    {
        byte[] delimiter = Encoding.ASCII.GetBytes("--" + multipart.Boundary + "--");
        return bytes.AsSpan().IndexOf(delimiter) < 0;
    }
}
