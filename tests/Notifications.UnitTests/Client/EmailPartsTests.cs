using Notifications.Client;

namespace Notifications.UnitTests.Client;

/// <summary>An email's HTML alternative and attached files as the client checks them at enqueue, before any database.</summary>
public sealed class EmailPartsTests
{
    private static readonly byte[] Pdf = [0x25, 0x50, 0x44, 0x46];

    [Fact]
    public void Of_TenFilesOfTenMiBInAll_Accepted()
    {
        var files = Enumerable.Range(0, 10).Select(i => new NotificationAttachment($"{i}.bin", "application/octet-stream", new byte[1024 * 1024])).ToList();

        var values = OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { HtmlBody = "<p>b</p>", Attachments = files });

        Assert.Equal(10, values.Attachments.Count);
    }

    [Theory]
    [InlineData(11, 1, "at most 10 fit")]
    [InlineData(2, 5 * 1024 * 1024 + 1, "at most 10485760 (10 MiB)")]
    public void Of_OverTheLimits_ThrowsNamingTheLimit(int count, int size, string expected)
    {
        var files = Enumerable.Range(0, count).Select(i => new NotificationAttachment($"{i}.bin", "application/octet-stream", new byte[size])).ToList();

        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { Attachments = files }));

        Assert.Equal(nameof(NewNotification.Attachments), refused.ParamName);
        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", "application/pdf", "file name: it is empty")]
    [InlineData("in\r\nvoice.pdf", "application/pdf", "control character")]
    [InlineData("../invoice.pdf", "application/pdf", "path separator")]
    [InlineData("invoice.pdf", "pdf", "not type/subtype")]
    [InlineData("invoice.pdf", "application/pdf; name=x", "not type/subtype")]
    public void Of_BadFile_ThrowsNamingWhat(string name, string type, string expected)
    {
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(
            new NewNotification("a@example.test", "s", "b") { Attachments = [new NotificationAttachment(name, type, Pdf)] }));

        Assert.Equal(nameof(NewNotification.Attachments), refused.ParamName);
        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_HtmlBodyWithIsHtml_ThrowsNamingHtmlBody()
    {
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(
            new NewNotification("a@example.test", "s", "<p>b</p>") { IsHtml = true, HtmlBody = "<p>b</p>" }));

        Assert.Equal(nameof(NewNotification.HtmlBody), refused.ParamName);
        Assert.StartsWith("HtmlBody:", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_HtmlBodyOverOneMiB_ThrowsNamingHtmlBodyAndTheLimit()
    {
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(
            new NewNotification("a@example.test", "s", "b") { HtmlBody = new string('h', (1024 * 1024) + 1) }));

        Assert.Equal(nameof(NewNotification.HtmlBody), refused.ParamName);
        Assert.Contains("invalid html body: 1048577 characters, the limit is 1048576", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_HtmlBodyOfOneMiBInCharacters_Accepted()
    {
        string html = string.Concat(Enumerable.Repeat("\U0001F600", 1024 * 1024));

        Assert.Equal(html, OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { HtmlBody = html }).Notification.HtmlBody);
    }

    [Fact]
    public void Of_HtmlBodyWithTemplate_ThrowsNamingHtmlBody()
    {
        var templated = NewNotification.FromTemplate("a@example.test", "welcome", "{}") with { HtmlBody = "<p>b</p>" };

        Assert.Equal(nameof(NewNotification.HtmlBody), Assert.Throws<ArgumentException>(() => OutboxValues.Of(templated)).ParamName);
    }

    [Fact]
    public void Of_WebhookWithFiles_ThrowsThatTheyAreEmails()
    {
        var webhook = NewNotification.Webhook("billing", "invoice.paid", "{}") with { Attachments = [new NotificationAttachment("a.pdf", "application/pdf", Pdf)] };

        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(webhook));

        Assert.Equal(nameof(NewNotification.Attachments), refused.ParamName);
        Assert.Contains("no Attachments", refused.Message, StringComparison.Ordinal);
    }
}
