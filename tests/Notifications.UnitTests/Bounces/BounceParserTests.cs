using Notifications.Bounces.Reports;

namespace Notifications.UnitTests.Bounces;

/// <summary>Each sample of the corpus read as the receiver reads it, against its expected classification.</summary>
public sealed class BounceParserTests
{
    private const long Id = 4242;
    private static readonly BounceParser Parser = new(BounceCorpus.Codec);

    public static TheoryData<string, string, string?, string?> Classified() => new()
    {
        // file, outcome (or drop reason), recipient, status
        { "rfc3464-simple-failed.eml", Outcomes.Bounced, "louisl@larry.slip.umd.edu", "5.0.0" },
        { "rfc3464-delayed.eml", Outcomes.Deferred, "kate.wilson@example.com", "4.4.1" },
        { "postfix-user-unknown.eml", Outcomes.Bounced, "nobody@example.net", "5.1.1" },
        { "postfix-delayed.eml", Outcomes.Deferred, "busy@example.org", "4.4.1" },
        { "exim-failed.eml", Outcomes.Bounced, "gone@example.co.uk", "5.0.0" },
        { "office365-ndr.eml", Outcomes.Bounced, "missing@contoso.com", "5.1.10" },
        { "gmail-failure.eml", Outcomes.Bounced, "nosuchuser@gmail.com", "5.1.1" },
        { "amazon-ses-bounce.eml", Outcomes.Bounced, "bounce@simulator.amazonses.com", "5.1.1" },
        { "out-of-office.eml", DropReasons.AutoReply, null, null },
        { "human-reply.eml", DropReasons.NotAReport, null, null },
        { "success-delivered.eml", DropReasons.NoFailure, null, null },
        { "no-status-part.eml", DropReasons.NoDeliveryStatus, null, null },
        { "truncated-dsn.eml", DropReasons.Truncated, null, null },
    };

    [Theory]
    [MemberData(nameof(Classified))]
    public void Read_SampleToItsReturnPath_ItsClassification(string file, string expected, string? recipient, string? status)
    {
        var report = Read(file, BounceCorpus.Codec.For(Id));

        if (recipient is null)
        {
            Assert.Equal(expected, report.DropReason);
            return;
        }

        Assert.Null(report.DropReason);
        Assert.Equal(Id, report.NotificationId);
        var outcome = Assert.Single(report.Outcomes);
        Assert.Equal((expected, recipient, status), (outcome.Outcome, outcome.Recipient, outcome.Status));
    }

    [Fact]
    public void Read_Rfc3464MultipleRecipients_OneOutcomeEachFailedOrDelayed()
    {
        var report = Read("rfc3464-multiple-recipients.eml", BounceCorpus.Codec.For(Id));

        Assert.Equal(
            [(Outcomes.Bounced, "arathib@vnet.ibm.com"), (Outcomes.Deferred, "johnh@hpnjld.njd.hp.com"), (Outcomes.Bounced, "wsnell@sdcc13.ucsd.edu")],
            report.Outcomes.Select(o => (o.Outcome, o.Recipient)));
        Assert.Equal("550 'arathib@vnet.IBM.COM' is not a registered gateway user", report.Outcomes[0].Diagnostic);
    }

    [Fact]
    public void Read_PostfixBounce_DiagnosticUnfolded()
    {
        var outcome = Assert.Single(Read("postfix-user-unknown.eml", BounceCorpus.Codec.For(Id)).Outcomes);

        Assert.Equal("550 5.1.1 <nobody@example.net>: Recipient address rejected: User unknown in virtual mailbox table", outcome.Diagnostic);
    }

    [Theory]
    [InlineData("rfc5965-abuse.eml", "user@example.com")]
    [InlineData("yahoo-arf.eml", "complainer@yahoo.com")]
    public void Read_ArfToTheFeedbackAddress_ComplaintOfTheReturnedMessagesNotification(string file, string recipient)
    {
        var report = Read(file, BounceCorpus.FeedbackAddress);

        Assert.Equal(Id, report.NotificationId);
        var outcome = Assert.Single(report.Outcomes);
        Assert.Equal((Outcomes.Complained, recipient, "abuse"), (outcome.Outcome, outcome.Recipient, outcome.Status));
    }

    [Fact]
    public void Read_ArfNotSpam_NoFailure() =>
        Assert.Equal(DropReasons.NoFailure, Read("arf-not-spam.eml", BounceCorpus.FeedbackAddress).DropReason);

    [Fact]
    public void Read_DsnToAForgedReturnPath_UnknownNotification()
    {
        string genuine = BounceCorpus.Codec.For(Id);
        string forged = genuine.Replace($"+{Id}.", $"+{Id + 1}.", StringComparison.Ordinal);

        var report = Read("postfix-user-unknown.eml", forged);

        Assert.Equal(DropReasons.UnknownNotification, report.DropReason);
        Assert.Empty(report.Outcomes);
    }

    [Fact]
    public void Read_NotMime_Unreadable() =>
        Assert.Equal(DropReasons.Unreadable, Parser.Read(new MemoryStream("garbage without headers"u8.ToArray()), [BounceCorpus.Codec.For(Id)]).DropReason);

    private static BounceReport Read(string file, string envelopeRecipient) =>
        Parser.Read(new MemoryStream(BounceCorpus.Read(file, Id)), [envelopeRecipient]);
}
