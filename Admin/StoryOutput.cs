using Notifications.Admin.Operations;

namespace Notifications.Admin;

/// <summary>A notification's story as <c>admin show</c> prints it after the status: trace id, steps in order, and what is not kept.</summary>
internal static class StoryOutput
{
    public static async Task WriteAsync(TextWriter output, NotificationStoryRecord story)
    {
        if (story.Recipient is { } recipient)
        {
            await output.WriteLineAsync($"  recipient:   {OneLine(recipient)}");
        }

        await output.WriteLineAsync($"  trace id:    {story.TraceId ?? "not kept (the notification was not traced, or was not sent and has left the outbox)"}");
        if (story.Steps.Count == 0)
        {
            return;
        }

        await output.WriteLineAsync("  story:");
        foreach (var step in story.Steps)
        {
            string at = step.At is { } when ? ShowCommand.Time(when) : "(time not kept)";
            await output.WriteLineAsync($"    {at,-24} {step.Step,-22} {OneLine(step.Detail)}");
        }
    }

    private static string OneLine(string text) => text.ReplaceLineEndings(" ");
}
