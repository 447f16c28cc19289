using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using MimeKit;

namespace Notifications.Shared.Contract;

/// <summary>
/// Reads a notification's optional header fields: <c>reply_to</c>, <c>cc</c> and <c>bcc</c> are RFC 5322
/// address lists (comma-separated mailboxes, each a bare address or <c>Name &lt;address&gt;</c>), <c>headers</c>
/// is a JSON object of custom header names to string values. The validator and the consumer's message
/// builder read them the same way, so what passes validation is what gets built.
/// </summary>
public static class MessageHeaders
{
    /// <summary>The most mailboxes one list (Reply-To, Cc or Bcc) may hold.</summary>
    public const int MaxAddresses = AddressListRules.MaxAddresses;

    // Strict: no unquoted commas inside a name, no address without a domain, nothing MimeKit would guess at.
    internal static readonly ParserOptions Strict = new()
    {
        AddressParserComplianceMode = RfcComplianceMode.Strict,
        AllowAddressesWithoutDomain = false,
        AllowUnquotedCommasInAddresses = false,
    };

    /// <summary>
    /// The mailboxes of <paramref name="list"/> (none for null or blanks); false, with the reason, when it breaks the
    /// client's rule (<c>AddressListRules</c>: a group, a bare name, a comment, CR or LF, over <see cref="MaxAddresses"/>)
    /// or does not read in MimeKit as a list of mailboxes.
    /// </summary>
    public static bool TryParseAddressList(
        string? list, string field, out List<MailboxAddress> mailboxes, [NotNullWhen(false)] out string? error)
    {
        mailboxes = [];
        error = null;
        if (string.IsNullOrWhiteSpace(list))
        {
            return true;
        }

        // The client's rule first (it refuses the list at enqueue with this reason); MimeKit then reads what it accepts.
        error = AddressListRules.Check(list, field);
        if (error is not null)
        {
            return false;
        }

        if (!InternetAddressList.TryParse(Strict, list, out var parsed))
        {
            error = $"invalid {field}: '{Shown(list)}' is not a comma-separated list of e-mail addresses";
            return false;
        }

        foreach (var address in parsed)
        {
            if (address is not MailboxAddress { Address: var bare } mailbox || bare.IndexOf('@', StringComparison.Ordinal) is <= 0
                || bare.EndsWith('@') || NotificationValidator.Characters(bare) > NotificationValidator.MaxRecipientLength)
            {
                error = $"invalid {field}: '{Shown(address.ToString())}' is not a single mailbox";
                return false;
            }

            mailboxes.Add(mailbox);
        }

        return true;
    }

    /// <summary>
    /// The custom headers of <paramref name="json"/> in their order (none for null); false, with the reason, when
    /// it is not a JSON object of string values or one of them breaks <see cref="CustomHeaderRules"/>.
    /// </summary>
    public static bool TryParseCustomHeaders(
        string? json, out List<KeyValuePair<string, string>> headers, [NotNullWhen(false)] out string? error)
    {
        headers = [];
        error = null;
        if (json is null)
        {
            return true;
        }

        try
        {
            using var document = JsonDocument.Parse(json);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                error = "invalid headers: not a JSON object";
                return false;
            }

            var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
            foreach (var property in document.RootElement.EnumerateObject())
            {
                string? value = property.Value.ValueKind == JsonValueKind.String ? property.Value.GetString() : null;
                error = CustomHeaderRules.Check(property.Name, value)
                    ?? (names.Add(property.Name) ? null : $"'{property.Name}' appears twice");
                if (error is not null)
                {
                    error = "invalid headers: " + error;
                    return false;
                }

                headers.Add(new(property.Name, value!));
            }
        }
        catch (JsonException e)
        {
            error = $"invalid headers: not JSON ({e.Message})";
            return false;
        }

        if (headers.Count > CustomHeaderRules.MaxHeaders)
        {
            error = $"invalid headers: {headers.Count} headers, the limit is {CustomHeaderRules.MaxHeaders}";
            return false;
        }

        return true;
    }

    /// <summary>Null when the optional header fields of <paramref name="message"/> are valid; otherwise why not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        string? error = null;
        _ = TryParseAddressList(message.ReplyTo, "reply-to", out _, out error)
            && TryParseAddressList(message.Cc, "cc", out _, out error)
            && TryParseAddressList(message.Bcc, "bcc", out _, out error)
            && TryParseCustomHeaders(message.Headers, out _, out error);
        return error;
    }

    private static string Shown(string value) => value.Length <= 64 ? value : value[..64] + "...";
}
