using System.Buffers.Text;
using System.Text;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>
/// That an unsubscribe token shows nothing of the address it carries: neither its local part nor its domain, in the
/// token as written, URL-decoded, or decoded as base64url or base64 from any of its four
/// alignments, read as UTF-8, Latin-1 or UTF-16, and decoded once more as base64 (a payload encoded twice). (The
/// notification id is not looked for here: a short number turns up in random bytes by chance; the unit tests look for a
/// nine-digit one.)
/// </summary>
internal static class UnsubscribeTokenAssert
{
    public static void RevealsNothing(string token, string address)
    {
        string local = address[..address.IndexOf('@', StringComparison.Ordinal)];
        string domain = address[(address.IndexOf('@', StringComparison.Ordinal) + 1)..address.LastIndexOf('.')];
        foreach (var (how, text) in Decodings(token))
        {
            foreach (string secret in new[] { local, domain })
            {
                Assert.False(text.Contains(secret, StringComparison.OrdinalIgnoreCase), $"the token shows '{secret}' when {how}: {token}");
            }
        }
    }

    private static IEnumerable<(string How, string Text)> Decodings(string token)
    {
        yield return ("as written", token);
        yield return ("URL-decoded", Uri.UnescapeDataString(token));
        for (int skip = 0; skip < 4; skip++)
        {
            string part = token[skip..];
            foreach (var bytes in new[] { Base64UrlBytes(part), Base64Bytes(part) })
            {
                if (bytes is null)
                {
                    continue;
                }

                foreach (var encoding in new[] { Encoding.UTF8, Encoding.Latin1, Encoding.Unicode })
                {
                    string text = encoding.GetString(bytes);
                    yield return ($"base64-decoded from {skip} as {encoding.WebName}", text);
                    if (Base64Bytes(text) is { } twice)
                    {
                        yield return ($"base64-decoded twice from {skip}", Encoding.Latin1.GetString(twice));
                    }
                }
            }
        }
    }

    private static byte[]? Base64UrlBytes(string text)
    {
        string trimmed = text[..(text.Length - (text.Length % 4 == 1 ? 1 : 0))];
        return Base64Url.IsValid(trimmed) ? Base64Url.DecodeFromChars(trimmed) : null;
    }

    private static byte[]? Base64Bytes(string text)
    {
        string standard = text.Replace('-', '+').Replace('_', '/');
        standard = standard[..(standard.Length - (standard.Length % 4))];
        var buffer = new byte[standard.Length];
        return Convert.TryFromBase64String(standard, buffer, out int written) ? buffer[..written] : null;
    }
}
