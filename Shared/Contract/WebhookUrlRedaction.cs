namespace Notifications.Shared.Contract;

/// <summary>
/// An endpoint's URL is treated as a secret: chat webhooks carry their token in the path, other receivers in the query. What
/// is logged, stored with a dead letter or printed names the endpoint and its host (<see cref="Redact"/>), and text from
/// elsewhere (a receiver's answer, an exception's message) has the URL's path and query cut out (<see cref="Scrub"/>).
/// </summary>
public static class WebhookUrlRedaction
{
    /// <summary>Path segments and query values this long are cut out of text on their own as well (tokens are long).</summary>
    private const int LongPart = 16;

    /// <summary>Scheme, host and port, and <c>/…</c> for a path or query left out: <c>https://hooks.example.com/…</c>.</summary>
    public static string Redact(Uri url)
    {
        ArgumentNullException.ThrowIfNull(url);
        return url.IsAbsoluteUri ? $"{url.Scheme}://{url.Authority}{(url.PathAndQuery.Length > 1 ? "/…" : "/")}" : "(a relative URL)";
    }

    /// <summary><paramref name="text"/> with every form of <paramref name="url"/>'s path and query (and their long parts) replaced by <c>…</c>.</summary>
    public static string Scrub(string text, Uri url)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentNullException.ThrowIfNull(url);
        if (!url.IsAbsoluteUri)
        {
            return text;
        }

        foreach (string secret in Secrets(url).Where(s => s.Length > 1).Distinct(StringComparer.Ordinal).OrderByDescending(s => s.Length))
        {
            text = text.Replace(secret, "…", StringComparison.OrdinalIgnoreCase);
        }

        return text;
    }

    private static IEnumerable<string> Secrets(Uri url)
    {
        string[] whole = [url.OriginalString, url.AbsoluteUri, url.PathAndQuery, url.AbsolutePath, url.Query, url.Query.TrimStart('?')];
        foreach (string form in whole)
        {
            yield return form;
            yield return Uri.UnescapeDataString(form);
        }

        char[] separators = ['/', '?', '&', '='];
        foreach (string part in url.PathAndQuery.Split(separators, StringSplitOptions.RemoveEmptyEntries))
        {
            if (part.Length >= LongPart)
            {
                yield return part;
                yield return Uri.UnescapeDataString(part);
            }
        }
    }
}
