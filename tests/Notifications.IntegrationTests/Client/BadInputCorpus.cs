using Notifications.Client;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// One bad shape of an e-mail notification: the field it breaks, the reason the consumer's rules give (Shared/Contract/EmailRules,
/// AddressListRules), and what refuses it when it comes as plain SQL: a check constraint (migrations 016, 023, 027, 028 and 029), the column's
/// length (SQLSTATE 22001), or, where no table check can say it, the consumer (<see cref="TableRefusal"/> null: dead-lettered
/// with the same reason).
/// </summary>
public sealed record BadShape(string Name, string Recipient, string Subject, string Body, string Field, string Reason, string? TableRefusal)
{
    public string? ReplyTo { get; init; }

    public string? Cc { get; init; }

    public string? Bcc { get; init; }

    public string? HtmlBody { get; init; }

    public string? FromName { get; init; }

    public string? Category { get; init; }

    public NewNotification Notification => new(Recipient, Subject, Body)
    {
        ReplyTo = ReplyTo, Cc = Cc, Bcc = Bcc, HtmlBody = HtmlBody, FromName = FromName, Category = Category,
    };

    public override string ToString() => Name;
}

/// <summary>The bad-input corpus (issue 28, item 3): every shape the consumer would dead-letter, refused at enqueue instead.</summary>
public static class BadInputCorpus
{
    private const string OneAddress = "outbox_email_recipient_one_address";
    private const string OneLine = "outbox_subject_one_line";
    private const string CcOneLine = "outbox_cc_one_line";
    private const string TooLong = "22001";
    private const string NoDots = "outbox_email_recipient_no_dots";
    private const string BodyCharacters = "outbox_body_characters";
    private const string HtmlBodyCharacters = "outbox_html_body_characters";
    private const string FromNameCharacters = "outbox_from_name_characters";
    private const string FromNameOneLine = "outbox_from_name_one_line";
    private const string CategoryShape = "outbox_category_shape";

    public static IReadOnlyList<BadShape> Email { get; } =
    [
        Shape("empty recipient", "", nameof(NewNotification.Recipient), "invalid recipient: empty", OneAddress),
        Shape("blank recipient", "   ", nameof(NewNotification.Recipient), "invalid recipient: empty", OneAddress),
        Shape("no at sign", "not-an-address", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("at sign first", "@example.com", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("at sign last", "ada@", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("CR LF injection", "a@example.com\r\nBcc: victim@example.com", nameof(NewNotification.Recipient), "CR or LF (header injection)", OneAddress),
        Shape("trailing newline", "a@example.com\n", nameof(NewNotification.Recipient), "CR or LF (header injection)", OneAddress),
        Shape("display name", "Eve <e@example.com>", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("address list", "a@example.com, b@example.com", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("SQL in recipient", "x@example.com; DROP TABLE outbox", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("space in address", "a b@example.com", nameof(NewNotification.Recipient), "not a single e-mail address", OneAddress),
        Shape("consecutive dots", "a..b@example.com", nameof(NewNotification.Recipient), "not a single e-mail address", NoDots),
        Shape("321-character recipient", new string('a', 309) + "@example.com", nameof(NewNotification.Recipient), "longer than 320 characters", TooLong),
        Content("multi-line subject", subject: "Hi\r\nBcc: victim@example.com", field: nameof(NewNotification.Subject), reason: "control character (header injection)", refusal: OneLine),
        Content("subject with a tab", subject: "Order\tshipped", field: nameof(NewNotification.Subject), reason: "control character (header injection)", refusal: OneLine),
        Content("999-character subject", subject: new string('s', 999), field: nameof(NewNotification.Subject), reason: "longer than 998 characters", refusal: TooLong),
        Content("body over 1 MiB", body: new string('x', (1024 * 1024) + 1), field: nameof(NewNotification.Body), reason: "the limit is 1048576", refusal: BodyCharacters),
        Content("HTML body over 1 MiB", field: nameof(NewNotification.HtmlBody), reason: "invalid html body: 1048577 characters, the limit is 1048576", refusal: HtmlBodyCharacters)
            with { HtmlBody = new string('h', (1024 * 1024) + 1) },
        Content("Reply-To not an address", field: nameof(NewNotification.ReplyTo), reason: "invalid reply-to: 'not an address' is not a single mailbox", refusal: null)
            with { ReplyTo = "not an address" },
        Content("Cc with CR LF", field: nameof(NewNotification.Cc), reason: "invalid cc: contains CR or LF (header injection)", refusal: CcOneLine)
            with { Cc = "a@example.com\r\nBcc: victim@example.com" },
        Content("Cc with a bad address", field: nameof(NewNotification.Cc), reason: "invalid cc: 'b@' is not a single mailbox", refusal: null)
            with { Cc = "a@example.com, b@" },
        Content("Bcc display name with a bad address", field: nameof(NewNotification.Bcc), reason: "invalid bcc: 'Archive <archive@@example.com>' is not a single mailbox", refusal: null)
            with { Bcc = "ok@example.com, Archive <archive@@example.com>" },
        Content("From name with CR LF", field: nameof(NewNotification.FromName), reason: "invalid from name: contains CR, LF or another control character", refusal: FromNameOneLine)
            with { FromName = "Billing\r\nBcc: victim@example.com" },
        Content("blank From name", field: nameof(NewNotification.FromName), reason: "invalid from name: empty or blank", refusal: FromNameCharacters)
            with { FromName = "   " },
        Content("101-character From name", field: nameof(NewNotification.FromName), reason: "invalid from name: longer than 100 characters", refusal: FromNameCharacters)
            with { FromName = new string('n', 101) },
        Content("upper-case category", field: nameof(NewNotification.Category), reason: "invalid category name", refusal: CategoryShape)
            with { Category = "Marketing" },
        Content("category with a space", field: nameof(NewNotification.Category), reason: "invalid category name", refusal: CategoryShape)
            with { Category = "order updates" },
        Content("65-character category", field: nameof(NewNotification.Category), reason: "invalid category name", refusal: TooLong)
            with { Category = new string('c', 65) },
    ];

    private static BadShape Shape(string name, string recipient, string field, string reason, string? refusal) =>
        new(name, recipient, "Order shipped", "Hello", field, reason, refusal);

    private static BadShape Content(string name, string field, string reason, string? refusal, string subject = "Order shipped", string body = "Hello") =>
        new(name, "ada@example.com", subject, body, field, reason, refusal);

    /// <summary>Whether <paramref name="shape"/>'s table refusal is a check constraint (else SQLSTATE 22001 or the consumer).</summary>
    public static bool RefusedByCheck(BadShape shape) => shape.TableRefusal is OneAddress or OneLine or CcOneLine or NoDots or BodyCharacters or HtmlBodyCharacters or FromNameCharacters or FromNameOneLine or CategoryShape;

}
