using MimeKit;
using Notifications.Client;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Contract;

/// <summary>
/// Reply-To, Cc and Bcc lists through the client's rule (AddressListRules, as <see cref="MessageHeaderValues"/> applies it at
/// enqueue) and through MimeKit's strict parse (as the consumer reads them to build the mail): enqueue and send agree on each
/// list, and where the rule is stricter than MimeKit the consumer refuses the list too, with the client's reason.
/// </summary>
public sealed class AddressListAgreementTests
{
    private static readonly NewNotification Plain = new("a@example.com", "Hi", "body");

    [Theory]
    [InlineData("a@example.com")]
    [InlineData("a@example.com, b@example.org")]
    [InlineData("a@example.com,b@example.org")]
    [InlineData("  a@example.com  ,\tb@example.org  ")]
    [InlineData("Support <help@example.com>")]
    [InlineData("Support<help@example.com>")]
    [InlineData("<help@example.com>")]
    [InlineData("\"Doe, Jo\" <jo@example.com>, Support <help@example.com>")]
    [InlineData("\"Jo \\\"JJ\\\" Doe\" <jo@example.com>")]
    [InlineData("Jo \"JJ\" Doe <jo@example.com>")]
    [InlineData("Mary-Jane O'Neil <mj@example.com>")]
    [InlineData("Dr. Jo Doe <jo@example.com>")]
    [InlineData("Jürgen Groß <j@example.com>")]
    [InlineData("=?utf-8?q?J=C3=BCrgen?= <j@example.com>")]
    [InlineData("kunde@bücher.example")]
    [InlineData("jürgen@example.com")]
    [InlineData("first.last+tag@sub.example.co.uk")]
    [InlineData("\"Café \U0001F600\" <cafe@example.com>")]
    public void ClientAndMimeKit_ValidList_BothAccept(string list)
    {
        Assert.Null(ClientRefusal(list));
        Assert.True(MimeKitReadsMailboxes(list), $"MimeKit does not read '{list}'");
        Assert.True(MessageHeaders.TryParseAddressList(list, "cc", out _, out string? error), error);
    }

    [Theory]
    [InlineData("not an address")]
    [InlineData("nobody")]
    [InlineData("a@example.com, nobody")]
    [InlineData("a@")]
    [InlineData("@example.com")]
    [InlineData("Team: a@example.com, b@example.com;")]
    [InlineData("Doe, Jo <jo@example.com>")]
    [InlineData("<<a@example.com>")]
    [InlineData("Eve <not an address>")]
    [InlineData("Eve <e@>")]
    [InlineData("Eve <e@example.com")]
    [InlineData("Eve <e@example.com> trailing")]
    [InlineData("\"Doe, Jo <jo@example.com>")]
    [InlineData("a@example.com; b@example.com")]
    [InlineData("a@example.com b@example.com")]
    [InlineData("ok@example.com, Archive <archive@@example.com>")]
    [InlineData("a.@example.com")]
    [InlineData("a..b@example.com")]
    [InlineData("Jo <a.@example.com>")]
    [InlineData(".Jo <jo@example.com>")]
    public void ClientAndMimeKit_InvalidList_BothRefuse(string list)
    {
        Assert.NotNull(ClientRefusal(list));
        Assert.False(MimeKitReadsMailboxes(list), $"MimeKit reads '{list}'");
        Assert.False(MessageHeaders.TryParseAddressList(list, "cc", out _, out _));
    }

    /// <summary>Lists MimeKit would read that the rule refuses: the consumer applies the rule too, so it refuses them with the client's reason.</summary>
    [Theory]
    [InlineData("Jo (the boss) <jo@example.com>")]
    [InlineData("a@example.com,,b@example.com")]
    [InlineData("a@example.com,")]
    public void Consumer_ListOnlyTheRuleRefuses_RefusedWithTheClientsReason(string list)
    {
        Assert.True(MimeKitReadsMailboxes(list), $"MimeKit does not read '{list}' either");
        string? refusal = ClientRefusal(list);
        Assert.NotNull(refusal);

        Assert.False(MessageHeaders.TryParseAddressList(list, "cc", out _, out string? error));
        Assert.Contains(error, refusal, StringComparison.Ordinal);
    }

    [Fact]
    public void ClientAndConsumer_FiftyAndFiftyOneAddresses_AgreeOnTheLimit()
    {
        string fifty = string.Join(", ", Enumerable.Range(0, 50).Select(i => $"u{i}@example.com"));
        string fiftyOne = fifty + ", u50@example.com";

        Assert.Null(ClientRefusal(fifty));
        Assert.True(MessageHeaders.TryParseAddressList(fifty, "cc", out var mailboxes, out _));
        Assert.Equal(50, mailboxes.Count);
        Assert.Contains("the limit is 50", ClientRefusal(fiftyOne), StringComparison.Ordinal);
        Assert.False(MessageHeaders.TryParseAddressList(fiftyOne, "cc", out _, out _));
    }

    [Fact]
    public void RuleAccepts_GeneratedLists_MimeKitReadsEveryOne()
    {
        string[] names = ["", "Jo", "Jo Doe", "\"Doe, Jo\"", "\"\"", "Dr. Jo", "Jürgen", "J.", ".Jo", "Jo..Doe", "\"a\\\\b\"", "Jo (x)", "Jo:", "Jo@x", "Jo;", "Jo [x]", "\"Jo\" \"Doe\"", "'Jo'"];
        string[] addresses =
        [
            "a@example.com", "a+b@example.com", "a.b@example.com", "a..b@example.com", ".a@example.com", "a.@example.com",
            "a@example", "a@example..com", "a@.example.com", "a@example.com.", "a@-example.com", "a@exa_mple.com", "a@[127.0.0.1]",
            "\"a b\"@example.com", "\"ab\"@example.com", "jürgen@bücher.example", "a@b@example.com", "a!#$%&'*+/=?^_`{|}~-@example.com",
            "a@xn--bcher-kva.example", "a@1.2.3.4", "a@@example.com", "a@",
        ];
        var entries = addresses.Concat(names.SelectMany(name => addresses.Select(address => $"{name} <{address}>"))).ToList();
        var lists = entries.Concat(entries.Select((entry, i) => $"{entry}, {entries[(i * 7) % entries.Count]}")).ToList();

        var accepted = lists.Where(list => ClientRefusal(list) is null).ToList();

        Assert.NotEmpty(accepted);
        var disagreements = accepted.Where(list => !MimeKitReadsMailboxes(list) || !MessageHeaders.TryParseAddressList(list, "cc", out _, out _)).ToList();
        if (disagreements.Count > 0)
        {
            Assert.Fail($"{disagreements.Count} lists the rule takes and the consumer does not: {string.Join(" | ", disagreements)}");
        }
    }

    // The client's message when it refuses list as a Cc (the rule), or null when it takes it.
    private static string? ClientRefusal(string list)
    {
        try
        {
            MessageHeaderValues.Of(Plain with { Cc = list });
            return null;
        }
        catch (ArgumentException e) when (e.ParamName == nameof(NewNotification.Cc))
        {
            return e.Message;
        }
    }

    // The consumer's MimeKit parse alone (its strict options): every entry a mailbox with an address that has a local part and a domain.
    private static bool MimeKitReadsMailboxes(string list) =>
        InternetAddressList.TryParse(MessageHeaders.Strict, list, out var parsed)
        && parsed.All(a => a is MailboxAddress { Address: var address } && address.IndexOf('@', StringComparison.Ordinal) > 0 && !address.EndsWith('@'));
}
