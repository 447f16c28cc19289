using Microsoft.Extensions.DependencyInjection;

namespace Notifications.Consumer.Channels.Live;

/// <summary>DI wiring of the live channel (section <c>Live</c>).</summary>
internal static class LiveHostingExtensions
{
    public static IServiceCollection AddLiveChannel(this IServiceCollection services)
    {
        services.AddOptions<LiveOptions>().BindConfiguration(LiveOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<LiveRoute>();
        services.AddSingleton<LivePendingWriter>();
        services.AddSingleton<LiveSender>();
        services.AddSingleton<LiveFallback>();
        services.AddSingleton<IChannel, LiveChannel>();
        return services;
    }
}
