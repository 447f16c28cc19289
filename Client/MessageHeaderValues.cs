using System.Text;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// Checks a notification's Reply-To, Cc, Bcc and custom headers by the consumer's own rules (<see cref="AddressListRules"/>
/// and <see cref="CustomHeaderRules"/>, compiled into this package; the consumer applies them before MimeKit reads the
/// lists), and writes the headers as the JSON object the <c>headers</c> column holds.
/// </summary>
internal static class MessageHeaderValues
{
    /// <summary>The <c>headers</c> column's value; throws <see cref="ArgumentException"/> for what the consumer would refuse.</summary>
    public static string? Of(NewNotification notification)
    {
        CheckList(notification.ReplyTo, "reply-to", 998, nameof(NewNotification.ReplyTo));
        CheckList(notification.Cc, "cc", 4000, nameof(NewNotification.Cc));
        CheckList(notification.Bcc, "bcc", 4000, nameof(NewNotification.Bcc));
        if (notification.Headers is not { } headers)
        {
            return null;
        }

        if (headers.Count > CustomHeaderRules.MaxHeaders)
        {
            throw new ArgumentException($"{headers.Count} custom headers; at most {CustomHeaderRules.MaxHeaders} are sent.", nameof(NewNotification.Headers));
        }

        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            foreach ((string name, string value) in headers)
            {
                string? error = CustomHeaderRules.Check(name, value) ?? (names.Add(name) ? null : $"'{name}' appears twice (header names ignore case)");
                if (error is not null)
                {
                    throw new ArgumentException($"Custom header refused: {error}.", nameof(NewNotification.Headers));
                }

                writer.WriteString(name, value);
            }

            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    // The consumer's rule (its reason names the list as the dead letter does), then the column's length in characters.
    private static void CheckList(string? list, string field, int maxLength, string property)
    {
        if (list is null)
        {
            return;
        }

        if (AddressListRules.Check(list, field) is { } error)
        {
            throw new ArgumentException($"{property} refused, {error}.", property);
        }

        if (EmailRules.Characters(list) is var length && length > maxLength)
        {
            throw new ArgumentException($"{property} is {length} characters long; the column holds {maxLength}.", property);
        }
    }
}
