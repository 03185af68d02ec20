// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {OutcomeToken} from "../tokens/OutcomeToken.sol";
import {LmsrMarket} from "./LmsrMarket.sol";
import {ILmsrFactory} from "./ILmsrFactory.sol";

/// @title LmsrFactory
/// @notice Creates LMSR markets with a fixed outcome count (deployed twice: BinaryFactory with 2, TernaryFactory
/// with 3). Registers each market in the shared OutcomeToken (which allocates the market id) and moves the creator's
/// seed into it. Admin enables collateral and sets the treasury; RESOLVER_ROLE resolves or voids markets.
contract LmsrFactory is ILmsrFactory, AccessControl {
    using SafeERC20 for IERC20;

    /// @notice Role allowed to resolve and void this factory's markets.
    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    /// @notice Cap on each stamped fee.
    uint16 public constant MAX_FEE_BPS = 1_000;

    /// @notice The shared outcome token.
    OutcomeToken public immutable outcomeToken;
    /// @notice Outcomes of every market of this factory.
    uint8 public immutable outcomeCount;
    /// @notice Fee recipient.
    address public treasury;
    /// @notice Whether a collateral token is enabled.
    mapping(address token => bool enabled) public collateralEnabled;

    constructor(address admin, OutcomeToken outcomeToken_, uint8 outcomeCount_, address treasury_) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(RESOLVER_ROLE, admin);
        outcomeToken = outcomeToken_;
        outcomeCount = outcomeCount_;
        treasury = treasury_;
        emit TreasurySet(treasury_);
    }

    /// @notice Enables or disables `token` as collateral. Only the admin.
    function setCollateral(address token, bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        collateralEnabled[token] = enabled;
        emit CollateralSet(token, enabled);
    }

    /// @notice Sets the fee recipient. Only the admin.
    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        treasury = treasury_;
        emit TreasurySet(treasury_);
    }

    /// @notice Whether `account` may resolve and void markets.
    function isResolver(address account) external view returns (bool) {
        return hasRole(RESOLVER_ROLE, account);
    }

    /// @notice Creates a market seeded with `seed` of `collateral` pulled from the caller (approve this factory).
    function createMarket(
        address collateral,
        uint256 seed,
        uint64 closeTime,
        uint16 sellExitFeeBps,
        uint16 winningsExitFeeBps,
        string calldata question
    ) external returns (address market, uint256 marketId) {
        if (!collateralEnabled[collateral]) revert LmsrFactoryCollateralNotEnabled(collateral);
        if (closeTime <= block.timestamp) revert LmsrFactoryBadCloseTime(closeTime, block.timestamp);
        if (sellExitFeeBps > MAX_FEE_BPS) revert LmsrFactoryFeeTooHigh(sellExitFeeBps, MAX_FEE_BPS);
        if (winningsExitFeeBps > MAX_FEE_BPS) revert LmsrFactoryFeeTooHigh(winningsExitFeeBps, MAX_FEE_BPS);
        if (seed < 100) revert LmsrFactorySeedTooSmall(seed);
        LmsrMarket m = new LmsrMarket(
            msg.sender, IERC20(collateral), outcomeToken, outcomeCount, seed, closeTime, sellExitFeeBps, winningsExitFeeBps
        );
        market = address(m);
        marketId = outcomeToken.registerMarket(market, outcomeCount);
        m.initialize(marketId);
        IERC20(collateral).safeTransferFrom(msg.sender, market, seed);
        emit MarketCreated(
            market, marketId, msg.sender, collateral, outcomeCount, m.b(), seed, 0, sellExitFeeBps, winningsExitFeeBps,
            closeTime, keccak256(bytes(question)), question
        );
    }
}
