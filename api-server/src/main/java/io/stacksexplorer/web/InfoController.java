package io.stacksexplorer.web;

import io.micronaut.context.annotation.Value;
import io.micronaut.http.annotation.Controller;
import io.stacksexplorer.query.ChainStateRow;
import io.stacksexplorer.query.StatusQueries;
import io.stacksexplorer.server.api.InfoApi;
import io.stacksexplorer.server.model.ApiStatus;
import io.stacksexplorer.server.model.ChainTip;

@Controller
class InfoController implements InfoApi {

    private final StatusQueries status;
    private final String serverVersion;

    InfoController(StatusQueries status, @Value("${api.server-version}") String serverVersion) {
        this.status = status;
        this.serverVersion = serverVersion;
    }

    @Override
    public ApiStatus getApiStatus() {
        ChainStateRow state = status.chainState();
        ApiStatus answer = new ApiStatus(serverVersion, "ready", state.poxV1UnlockHeight(), state.poxV2UnlockHeight(),
                state.poxV3UnlockHeight());
        if (state.blockHeight() != null) {
            ChainTip tip = new ChainTip(state.blockHeight(), state.blockHash(), state.indexBlockHash(),
                    state.burnBlockHeight());
            if (state.microblockHash() != null) {
                tip.setMicroblockHash(state.microblockHash());
                tip.setMicroblockSequence(state.microblockSequence());
            }
            answer.setChainTip(tip);
        }
        return answer;
    }

    /** The same status at the reference implementation's older path. */
    @Override
    public ApiStatus getApiStatusV1() {
        return getApiStatus();
    }
}
