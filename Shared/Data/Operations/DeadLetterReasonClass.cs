using System.Text.RegularExpressions;

namespace Notifications.Shared.Data.Operations;

/// <summary>
/// A dead letter's reason with what varies from one message to the next taken out — addresses, GUIDs, digits — so
/// "smtp permanent failure 550: 5.1.1 &lt;ana@example.com&gt; unknown" and the same for bob are one group
/// (the <c>dead_letter.reason_class</c> column, written with the row: an indexed equality, not a pattern, at read time).
/// </summary>
public static partial class DeadLetterReasonClass
{
    /// <summary>The column's length.</summary>
    public const int MaxLength = 200;

    /// <summary>The class of <paramref name="reason"/>: addresses as &lt;address&gt;, GUIDs as &lt;guid&gt;, each run of digits as #, cut to <see cref="MaxLength"/>.</summary>
    public static string Of(string reason)
    {
        // The reason is cut to 1000 characters before it gets here, which bounds the patterns' work.
        string text = Address().Replace(reason, "<address>");
        text = GuidText().Replace(text, "<guid>");
        text = Digit().Replace(text, "#");
        return text.Length <= MaxLength ? text : text[..MaxLength];
    }

    [GeneratedRegex("""[^\s<>()\[\]"',;:@]+@[^\s<>()\[\]"',;:@]+""", RegexOptions.CultureInvariant)]
    private static partial Regex Address();

    [GeneratedRegex("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", RegexOptions.CultureInvariant)]
    private static partial Regex GuidText();

    [GeneratedRegex("[0-9]+", RegexOptions.CultureInvariant)]
    private static partial Regex Digit();
}
