using System.Text;
using Notifications.Consumer.Channels.Email;

namespace Notifications.UnitTests.Sending;

public sealed class FinalDataTrackerTests
{
    [Fact]
    public void LogClient_DataEndingWithTerminator_FinalDataWritten()
    {
        FinalDataTracker tracker = Armed();

        Log(tracker, "MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\n", "DATA\r\n", "Subject: x\r\n\r\nbody\r\n");
        Assert.False(tracker.FinalDataWritten);

        Log(tracker, ".\r\n");
        Assert.True(tracker.FinalDataWritten);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void LogClient_TerminatorSplitOverWrites_FinalDataWritten(int split)
    {
        FinalDataTracker tracker = Armed();
        const string end = "last line\r\n.\r\n";

        Log(tracker, end[..^split]);
        Assert.False(tracker.FinalDataWritten);
        Log(tracker, end[^split..]);

        Assert.True(tracker.FinalDataWritten);
    }

    [Fact]
    public void LogClient_DotStuffedLines_NotTakenForTheEnd()
    {
        FinalDataTracker tracker = Armed();

        Log(tracker, "DATA\r\n", "a\r\n..\r\n", "..\r\n", "...\r\n");

        Assert.False(tracker.FinalDataWritten);
    }

    [Fact]
    public void LogClient_BdatChunk_WrittenOnceAllAnnouncedBytesAreOut()
    {
        FinalDataTracker tracker = Armed();

        Log(tracker, "BDAT 10 LAST\r\n12345");
        Assert.False(tracker.FinalDataWritten);
        Log(tracker, "6789");
        Assert.False(tracker.FinalDataWritten);
        Log(tracker, "0");

        Assert.True(tracker.FinalDataWritten);
    }

    [Fact]
    public void Arm_AfterATransaction_StartsOver()
    {
        FinalDataTracker tracker = Armed();
        Log(tracker, "DATA\r\n", "x\r\n.\r\n");
        tracker.LogServer([(byte)'2'], 0, 1);

        tracker.Arm();

        Assert.False(tracker.FinalDataWritten);
        Assert.False(tracker.ServerReplied);
        Log(tracker, "\r\n"); // the previous transaction's tail must not complete a terminator
        Assert.False(tracker.FinalDataWritten);
    }

    private static FinalDataTracker Armed()
    {
        var tracker = new FinalDataTracker();
        tracker.Arm();
        return tracker;
    }

    private static void Log(FinalDataTracker tracker, params string[] writes)
    {
        foreach (string write in writes)
        {
            byte[] bytes = Encoding.ASCII.GetBytes("##" + write);
            tracker.LogClient(bytes, 2, bytes.Length - 2);
        }
    }
}
