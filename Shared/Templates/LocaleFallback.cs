namespace Notifications.Shared.Templates;

/// <summary>
/// Which stored locale renders a notification: the wanted one (<c>pt-BR</c>), then its parents (<c>pt</c>), then the
/// configured default locale, then the template's own default (its first locale put). An unknown or absent locale
/// falls back; it never fails while the template exists in any locale. Locales compare case-insensitively.
/// </summary>
public static class LocaleFallback
{
    /// <summary>The locales tried for <paramref name="wanted"/>, in order: it, its parents, then <paramref name="defaultLocale"/>.</summary>
    public static IEnumerable<string> Chain(string? wanted, string defaultLocale)
    {
        for (string? tag = wanted?.Trim().Replace('_', '-'); !string.IsNullOrEmpty(tag); tag = Parent(tag))
        {
            yield return tag;
        }

        yield return defaultLocale;
    }

    /// <summary>
    /// The one of <paramref name="locales"/> (ordered as <see cref="ITemplateStore.GetNewestAsync"/> returns them, the
    /// template's default first) that renders <paramref name="wanted"/>; null only when <paramref name="locales"/> is empty.
    /// </summary>
    public static T? Choose<T>(IReadOnlyList<T> locales, Func<T, string> localeOf, string? wanted, string defaultLocale)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(locales);
        ArgumentNullException.ThrowIfNull(localeOf);
        foreach (string candidate in Chain(wanted, defaultLocale))
        {
            foreach (var item in locales)
            {
                if (string.Equals(localeOf(item), candidate, StringComparison.OrdinalIgnoreCase))
                {
                    return item;
                }
            }
        }

        return locales.Count > 0 ? locales[0] : null;
    }

    // "zh-Hant-TW" -> "zh-Hant" -> "zh" -> null.
    private static string? Parent(string tag)
    {
        int dash = tag.LastIndexOf('-');
        return dash > 0 ? tag[..dash] : null;
    }
}
