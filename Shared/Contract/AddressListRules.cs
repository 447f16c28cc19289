namespace Notifications.Shared.Contract;

/// <summary>
/// The shape of a Reply-To, Cc or Bcc address list, without a mail parser: entries separated by commas outside quotes,
/// each a bare address or <c>Name &lt;address&gt;</c> (the name atoms or quoted strings), each address one that
/// <see cref="EmailRules.Recipient"/> takes, at most <see cref="MaxAddresses"/>. Plain .NET only: this file is compiled
/// into the client package as well, so an app hears at enqueue what the consumer would dead-letter. The consumer applies
/// it before MimeKit's strict parse, so a list is refused for the same reason at both ends; every list it accepts also
/// parses in MimeKit (AddressListAgreementTests). Stricter than RFC 5322 on purpose: no comments, no groups, no empty entries.
/// </summary>
internal static class AddressListRules
{
    /// <summary>The most mailboxes one list (Reply-To, Cc or Bcc) may hold.</summary>
    public const int MaxAddresses = 50;

    /// <summary>
    /// Null when <paramref name="list"/> (null or blank: none) is an acceptable address list; otherwise why not, naming
    /// <paramref name="field"/> (<c>reply-to</c>, <c>cc</c>, <c>bcc</c>) as the dead-letter reason does.
    /// </summary>
    public static string? Check(string? list, string field)
    {
        if (string.IsNullOrWhiteSpace(list))
        {
            return null;
        }

        if (list.AsSpan().ContainsAny('\r', '\n'))
        {
            return $"invalid {field}: contains CR or LF (header injection)";
        }

        if (Entries(list) is not { } entries)
        {
            return $"invalid {field}: '{EmailRules.Truncate(list)}' has a quote that is not closed";
        }

        if (entries.Find(entry => !IsMailbox(entry)) is { } bad)
        {
            return $"invalid {field}: '{EmailRules.Truncate(bad)}' is not a single mailbox (an address or Name <address>)";
        }

        return entries.Count > MaxAddresses ? $"invalid {field}: {entries.Count} addresses, the limit is {MaxAddresses}" : null;
    }

    // The entries between commas outside quoted strings, trimmed; null when a quoted string is not closed.
    private static List<string>? Entries(string list)
    {
        var entries = new List<string>();
        for (int start = 0; ;)
        {
            int comma = NextOutsideQuotes(list.AsSpan(start), ',');
            if (comma < 0)
            {
                return null;
            }

            entries.Add(list.Substring(start, comma).Trim());
            start += comma + 1;
            if (start > list.Length)
            {
                return entries;
            }
        }
    }

    // "addr" or "Name <addr>" (or "<addr>").
    private static bool IsMailbox(string entry)
    {
        if (!entry.EndsWith('>'))
        {
            return IsAddress(entry);
        }

        int open = NextOutsideQuotes(entry, '<');
        return open >= 0 && open < entry.Length && IsPhrase(entry.AsSpan(0, open)) && IsAddress(entry[(open + 1)..^1]);
    }

    // The recipient's rule, and no dot ending the local part: MimeKit's strict parse refuses "a.@example.com" in a list
    // (a recipient is not parsed, so the recipient's rule may take it).
    private static bool IsAddress(string address) =>
        EmailRules.Recipient(address) is null && !address.AsSpan(0, address.LastIndexOf('@')).EndsWith('.');

    // The index of the first target outside quoted strings, the text's length when there is none, -1 when a quote is left open.
    private static int NextOutsideQuotes(ReadOnlySpan<char> text, char target)
    {
        bool quoted = false;
        for (int i = 0; i < text.Length; i++)
        {
            if (quoted && text[i] == '\\')
            {
                i++;
            }
            else if (text[i] == '"')
            {
                quoted = !quoted;
            }
            else if (!quoted && text[i] == target)
            {
                return i;
            }
        }

        return quoted ? -1 : text.Length;
    }

    // A display name: words (atoms, possibly with dots, or quoted strings) separated by blanks; empty is allowed. A dot
    // may not come first (obs-phrase: a word, then words and dots), as MimeKit's strict parse has it.
    private static bool IsPhrase(ReadOnlySpan<char> name)
    {
        if (name.TrimStart(" \t").StartsWith('.'))
        {
            return false;
        }

        for (int i = 0; i < name.Length; i++)
        {
            char c = name[i];
            if (c == '"')
            {
                i = ClosingQuote(name, i);
                if (i < 0)
                {
                    return false;
                }
            }
            else if (c is not (' ' or '\t') && !IsAtomText(c))
            {
                return false;
            }
        }

        return true;
    }

    // The index of the quote closing the quoted string opened at open, or -1 (also for a control character but tab).
    private static int ClosingQuote(ReadOnlySpan<char> text, int open)
    {
        for (int i = open + 1; i < text.Length; i++)
        {
            if (char.IsControl(text[i]) && text[i] != '\t')
            {
                return -1;
            }

            if (text[i] == '\\')
            {
                i++;
            }
            else if (text[i] == '"')
            {
                return i;
            }
        }

        return -1;
    }

    // RFC 5322 atext, RFC 6532's non-ASCII, and the dot of obs-phrase ("Dr. Jo"); no control character.
    private static bool IsAtomText(char c) =>
        char.IsAsciiLetterOrDigit(c) || "!#$%&'*+-/=?^_`{|}~.".Contains(c) || (c > '\u007f' && !char.IsControl(c));
}
