using Notifications.Harness;

namespace Notifications.UnitTests.Harness;

/// <summary><c>--channel</c>, <c>--push-provider</c> and the <c>receiver</c> mode of scripts/bench.</summary>
public sealed class HarnessOptionsChannelTests
{
    [Fact]
    public void Parse_NoChannel_Email()
    {
        Assert.Equal("email", HarnessOptions.Parse(["run"]).Channel);
    }

    [Fact]
    public void Parse_RunWithWebhookChannel_WebhookOnTheDefaultReceiverPort()
    {
        var options = HarnessOptions.Parse(["run", "--channel", "webhook", "--ceilings"]);

        Assert.Equal(("run", "webhook", 2660, true), (options.Mode, options.Channel, options.ReceiverPort, options.Ceilings));
    }

    [Fact]
    public void Parse_ReceiverPush_ChannelFromThePositionalArgument()
    {
        var options = HarnessOptions.Parse(["receiver", "push", "--receiver-port", "2700", "--keys", "/tmp/keys"]);

        Assert.Equal(("receiver", "push", 2700, "/tmp/keys"), (options.Mode, options.Channel, options.ReceiverPort, options.Keys));
    }

    [Theory]
    [InlineData("receiver")]
    [InlineData("receiver", "email")]
    [InlineData("run", "--channel", "sms")]
    [InlineData("run", "--channel", "push", "--push-provider", "wns")]
    [InlineData("run", "--channel", "webhook", "--baseline")]
    [InlineData("run", "--channel", "push", "--template")]
    [InlineData("latency", "--channel", "webhook")]
    [InlineData("priority", "--channel", "push")]
    [InlineData("sweep", "--channel", "webhook", "--sweep-latency", "20s")]
    [InlineData("receiver", "webhook", "--secret", "not-a-secret")]
    public void Parse_ChannelWhereItDoesNotBelong_ClearError(params string[] args)
    {
        var error = Assert.Throws<ArgumentException>(() => HarnessOptions.Parse(args));

        Assert.False(string.IsNullOrWhiteSpace(error.Message));
    }
}
