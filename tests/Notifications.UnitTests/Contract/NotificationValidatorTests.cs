using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Contract;

public sealed class NotificationValidatorTests
{
    private static NotificationMessage Valid => new(1, "someone@example.com", "Subject", "Body", false, DateTimeOffset.UnixEpoch, null);

    [Fact]
    public void Validate_WellFormed_Null() => Assert.Null(NotificationValidator.Validate(Valid));

    [Theory]
    [InlineData("", "empty")]
    [InlineData("   ", "empty")]
    [InlineData(null, "empty")]
    [InlineData("no-at-sign", "not a single e-mail address")]
    [InlineData("Name <a@example.com>", "not a single e-mail address")]
    [InlineData("a@example.com, b@example.com", "not a single e-mail address")]
    [InlineData("a@example.com\r\nBcc: x@example.com", "header injection")]
    [InlineData("a@example.com\nBcc: x@example.com", "header injection")]
    [InlineData("a b@example.com", "not a single e-mail address")]
    [InlineData("a..b@example.com", "not a single e-mail address")]
    [InlineData("a@b@example.com", "not a single e-mail address")]
    public void Validate_BadRecipient_ReasonNamesTheProblem(string? recipient, string expected)
    {
        string? reason = NotificationValidator.Validate(Valid with { Recipient = recipient });

        Assert.NotNull(reason);
        Assert.Contains(expected, reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_SubjectOf998Emoji_AcceptedLikeTheOutboxColumn()
    {
        // 998 characters as PostgreSQL's varchar(998) counts them; 1,996 UTF-16 units (the old, wrong count).
        string subject = string.Concat(Enumerable.Repeat("😀", 998));

        Assert.Null(NotificationValidator.Validate(Valid with { Subject = subject }));
        Assert.Contains("longer than 998 characters", NotificationValidator.Validate(Valid with { Subject = subject + "😀" }), StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_RecipientOf320CharactersWithNonBmpLocalPart_Accepted()
    {
        string recipient = string.Concat(Enumerable.Repeat("𝒶", 64)) + "@" + new string('d', 251) + ".com";

        Assert.Equal(320, NotificationValidator.Characters(recipient));
        Assert.DoesNotContain("longer than", NotificationValidator.Validate(Valid with { Recipient = recipient }) ?? "", StringComparison.Ordinal);
        Assert.Contains("longer than", NotificationValidator.Validate(Valid with { Recipient = "a" + recipient }), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", 0)]
    [InlineData("abc", 3)]
    [InlineData("😀", 1)]
    [InlineData("a😀b🇩🇪", 5)]
    public void Characters_CountsCodePoints(string text, int expected) => Assert.Equal(expected, NotificationValidator.Characters(text));

    [Fact]
    public void Characters_LoneSurrogates_OneEach()
    {
        Assert.Equal(1, NotificationValidator.Characters(new string((char)0xD83D, 1)));
        Assert.Equal(2, NotificationValidator.Characters(new string([(char)0xDE00, (char)0xD83D])));
    }

    [Theory]
    [InlineData("Hi\r\nBcc: x@example.com")]
    [InlineData("Hi\nthere")]
    [InlineData("Hi\rthere")]
    [InlineData("nul\0byte")]
    public void Validate_ControlCharacterInSubject_RejectedAsHeaderInjection(string subject) =>
        Assert.Contains("header injection", NotificationValidator.Validate(Valid with { Subject = subject }), StringComparison.Ordinal);

    [Fact]
    public void Validate_OversizedFields_Rejected()
    {
        Assert.Contains("longer than", NotificationValidator.Validate(Valid with { Subject = new string('s', 999) }), StringComparison.Ordinal);
        Assert.Contains("longer than", NotificationValidator.Validate(Valid with { Recipient = new string('a', 310) + "@example.com" }), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-5)]
    public void Validate_NonPositiveId_Rejected(long id) =>
        Assert.Contains("invalid id", NotificationValidator.Validate(Valid with { Id = id }), StringComparison.Ordinal);

    [Fact]
    public void Validate_MissingSubjectOrBody_Rejected()
    {
        Assert.Contains("subject", NotificationValidator.Validate(Valid with { Subject = null }), StringComparison.Ordinal);
        Assert.Contains("body", NotificationValidator.Validate(Valid with { Body = null }), StringComparison.Ordinal);
    }

    [Fact]
    public void IsExpired_PastAndFutureAndNone()
    {
        var now = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

        Assert.True(NotificationValidator.IsExpired(Valid with { ExpiresAt = now.AddSeconds(-1) }, now));
        Assert.False(NotificationValidator.IsExpired(Valid with { ExpiresAt = now.AddYears(100) }, now));
        Assert.False(NotificationValidator.IsExpired(Valid, now));
    }
}
